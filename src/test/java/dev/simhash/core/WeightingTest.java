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
}
