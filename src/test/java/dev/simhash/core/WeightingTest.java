package dev.simhash.core;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class WeightingTest {

    /** The precomputed weights are the weights: the same doubles as the v1 reference, below and above the table's end. */
    @Test
    void tableWeightsAreTheV1Weights() {
        for (Weighting w : Weighting.values()) {
            for (int tf = 1; tf <= 3 * Weighting.TABLE_SIZE; tf++) {
                assertEquals(Double.doubleToRawLongBits(ReferenceSimHash.weight(w.optionName(), tf)), Double.doubleToRawLongBits(w.weightOf(tf)),
                    w + " tf " + tf);
            }
        }
        assertEquals(1 + Math.log(Integer.MAX_VALUE), Weighting.LOG_TF.weightOf(Integer.MAX_VALUE));
    }

    /** simhash-v2's weight is 1 + ln(tf) with fdlibm's ln (StrictMath), not Math.log (which may differ by an ulp, e.g. here for tf 3). */
    @Test
    void v2WeightsUseStrictMath() {
        for (int tf = 1; tf <= 3 * Weighting.TABLE_SIZE; tf++) {
            assertEquals(Double.doubleToRawLongBits(1 + StrictMath.log(tf)), Double.doubleToRawLongBits(Weighting.v2Weight(tf)), "tf " + tf);
        }
        assertEquals(1 + StrictMath.log(Integer.MAX_VALUE), Weighting.v2Weight(Integer.MAX_VALUE));
        // pinned: fdlibm's 1 + ln 3 on every platform (this JVM's Math.log gives 0x4000C9F53D568186 on x86-64)
        assertEquals(0x4000C9F53D568185L, Double.doubleToRawLongBits(Weighting.v2Weight(3)));
    }
}
