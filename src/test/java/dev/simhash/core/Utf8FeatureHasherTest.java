package dev.simhash.core;

import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;
import java.util.OptionalLong;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The buffer-reusing feature hash is SimHash.featureHash (String.getBytes(UTF_8)) on any string, malformed ones included. */
@ExtendWith(TestSeeds.class)
class Utf8FeatureHasherTest {

    private static final AtomicLong SEEDS = TestSeeds.sequence();
    private static final Utf8FeatureHasher SHARED = new Utf8FeatureHasher();

    static String randomString(Random r) {
        int len = r.nextInt(10) == 0 ? r.nextInt(20_000) : r.nextInt(40);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < len; i++) {
            switch (r.nextInt(7)) {
                case 0 -> sb.append((char) r.nextInt(0x80));
                case 1 -> sb.append((char) (0x80 + r.nextInt(0x780))); // 2 bytes
                case 2 -> sb.append((char) (0x800 + r.nextInt(0xD000))); // 3 bytes, below the surrogates
                case 3 -> sb.appendCodePoint(0x10000 + r.nextInt(0x100000)); // a surrogate pair: 4 bytes
                case 4 -> sb.append((char) (0xD800 + r.nextInt(0x800))); // a lone (or accidentally paired) surrogate
                case 5 -> sb.append((char) (0xE000 + r.nextInt(0x2000))); // 3 bytes, above the surrogates
                default -> sb.append(r.nextBoolean() ? '\uDBFF' : '\uDC00'); // edges of the surrogate range
            }
        }
        return sb.toString();
    }

    @RepeatedTest(2000)
    void sameHashAsStringGetBytes() {
        long seed = SEEDS.incrementAndGet();
        String s = randomString(new Random(seed));
        assertEquals(SimHash.featureHash(s), SHARED.hash(s), "seed " + seed);
    }

    @Test
    void edgeCases() {
        for (String s : List.of("", "a", "\u007f", "\u0080", "\u07ff", "\u0800", "\uffff", "\uD800", "\uDC00", "\uD800\uD800\uDC00", "\uDC00\uD800",
            "x\uD83D", "\uD83D\uDE00", "\uDBFF\uDFFF", "新闻", "é")) {
            assertEquals(SimHash.featureHash(s), SHARED.hash(s), s);
        }
    }

    @Test
    void threadBagServesAnyOptionsAndNestedUse() {
        List<String> tokens = List.of("the", "quick", "brown", "fox", "the", "lazy", "dog", "the", "fox");
        for (FingerprintOptions o : List.of(FingerprintOptions.DEFAULTS, new FingerprintOptions(2, Weighting.LOG_TF, 1),
            new FingerprintOptions(3, Weighting.BINARY, 1), new FingerprintOptions(1, Weighting.TF, 20))) {
            FeatureBag bag = ThreadBags.lend(o, false);
            // nested use while the thread's bag is lent gets its own bag
            FeatureBag nested = ThreadBags.lend(FingerprintOptions.DEFAULTS, false);
            nested.addToken("other");
            tokens.forEach(bag::addToken);
            OptionalLong expected = ReferenceSimHash.fingerprint(tokens, o.shingleSize(), o.weighting().optionName(), o.minFeatures());
            assertEquals(expected, bag.fingerprint(), o.toString());
            assertEquals(ReferenceSimHash.fingerprint(List.of("other"), 1, "tf", 1), nested.fingerprint());
            bag.reset();
        }
    }
}
