package dev.simhash.calibrate;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RandomPairsTest {

    /** 0, 1, 3, f: distances 0-1 1, 0-3 2, 0-f 4, 1-3 1, 1-f 3, 3-f 2 (worked out by hand). */
    private static final long[] FOUR = { 0x0L, 0x1L, 0x3L, 0xfL };

    @Test
    void histogramAndCumulativeCountsOfAHandCheckedExample() {
        RandomPairs p = RandomPairs.of(FOUR);
        assertEquals(6, p.pairs());
        assertEquals(0, p.atDistance(0));
        assertEquals(2, p.atDistance(1));
        assertEquals(2, p.atDistance(2));
        assertEquals(1, p.atDistance(3));
        assertEquals(1, p.atDistance(4));
        assertEquals(0, p.within(0));
        assertEquals(2, p.within(1));
        assertEquals(4, p.within(2));
        assertEquals(5, p.within(3));
        assertEquals(6, p.within(4));
        assertEquals(6, p.within(64));
        assertEquals(1.0 / 3, p.observedRate(1), 1e-12);
        assertEquals(1.0 / 6, p.resolution(), 1e-12);
        // mean 13/6; variance 35/6 - (13/6)^2 = 41/36
        assertEquals(13.0 / 6, p.meanDistance(), 1e-12);
        assertEquals(Math.sqrt(41) / 6, p.sdDistance(), 1e-12);
    }

    @Test
    void falseMatchRateIsTheLargerOfObservedAndEstimated() {
        RandomPairs p = RandomPairs.of(FOUR);
        // k = 0: nothing observed; estimate Phi((0.5 - 2.1667) / 1.0672) = Phi(-1.5617) = 0.0592 (normal table)
        assertEquals(0.0592, p.estimatedRate(0), 5e-4);
        assertEquals(p.estimatedRate(0), p.falseMatchRate(0), 0);
        // k = 1: observed 2/6 exceeds the estimate Phi(-0.6247) = 0.266
        assertEquals(0.266, p.estimatedRate(1), 1e-3);
        assertEquals(1.0 / 3, p.falseMatchRate(1), 1e-12);
        assertEquals(1, p.largestKWithin(0.4, 16));
        assertEquals(0, p.largestKWithin(0.1, 16));
        assertEquals(-1, p.largestKWithin(0.01, 16));
    }

    @Test
    void relatedPairsAreNotFalseMatches() {
        // the pair (0, 1) at distance 1 is related; (2, 3) at distance 2 too, but it is beyond the checked distance 1
        RandomPairs p = RandomPairs.of(FOUR, (i, j) -> i == 0 && j == 1 || i == 2 && j == 3, 1);
        assertEquals(2, p.within(1));
        assertEquals(1, p.relatedWithin(1));
        assertEquals(1, p.relatedWithin(64));
        assertEquals(1.0 / 6, p.observedRate(1), 1e-12);
        assertEquals(3.0 / 6, p.observedRate(2), 1e-12);
        // the distance distribution (and so the estimate) is that of all pairs
        assertEquals(13.0 / 6, p.meanDistance(), 1e-12);
    }

    @Test
    void noPairsOrOneDistance() {
        RandomPairs none = RandomPairs.of(new long[] { 42 });
        assertEquals(0, none.pairs());
        assertEquals(0, none.falseMatchRate(5), 0);
        assertTrue(Double.isNaN(none.estimatedRate(5)));
        RandomPairs same = RandomPairs.of(new long[] { 7, 7, 7 });
        assertEquals(3, same.within(0));
        assertEquals(1.0, same.falseMatchRate(0), 0);
        assertTrue(Double.isNaN(same.estimatedRate(0)));
        assertEquals(-1, same.largestKWithin(0.5, 16));
    }

    @Test
    void uniformFingerprintsAreBinomial64Half() {
        Random r = new Random(11);
        long[] fps = new long[400];
        for (int i = 0; i < fps.length; i++) {
            fps[i] = r.nextLong();
        }
        RandomPairs p = RandomPairs.of(fps);
        assertEquals(400L * 399 / 2, p.pairs());
        // Binomial(64, 1/2): mean 32, sd 4
        assertEquals(32, p.meanDistance(), 0.2);
        assertEquals(4, p.sdDistance(), 0.2);
        // P(D <= 16) = 5.1e-5 for Binomial(64, 1/2): about 4 of 79,800 pairs; none within 8 bits (P = 4.4e-10)
        assertTrue(p.within(16) < 20, "pairs within 16: " + p.within(16));
        assertEquals(0, p.within(8));
        for (int k = 1; k <= 64; k++) {
            assertTrue(p.falseMatchRate(k) >= p.falseMatchRate(k - 1));
        }
    }

    @Test
    void normalTailAgainstTableValues() {
        assertEquals(0.5, Normal.lowerTail(0), 1e-7);
        assertEquals(0.8413447461, Normal.lowerTail(1), 1e-7);
        assertEquals(0.025, Normal.lowerTail(-1.959963985), 1e-7);
        assertEquals(1.349898032e-3, Normal.lowerTail(-3), 1.349898032e-3 * 1e-6);
        assertEquals(9.865876450e-10, Normal.lowerTail(-6), 9.865876450e-10 * 1e-6);
        assertEquals(7.619853025e-24, Normal.lowerTail(-10), 7.619853025e-24 * 1e-6);
    }
}
