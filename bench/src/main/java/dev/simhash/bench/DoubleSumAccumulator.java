package dev.simhash.bench;

/**
 * The accumulation step as the contract defines it (64 double sums, one addition per bit per feature, in feature
 * order), kept in the bench only to time the core's {@code SimHashAccumulator} side by side with it in one run.
 */
final class DoubleSumAccumulator {

    private final double[] sums = new double[64];

    void add(long featureHash, double weight) {
        if (!(weight > 0) || Double.isInfinite(weight)) {
            throw new IllegalArgumentException("feature weight must be a positive finite number, got [" + weight + "]");
        }
        double[] s = sums;
        long weightBits = Double.doubleToRawLongBits(weight);
        long zeros = ~featureHash;
        for (int i = 0; i < 64; i++) {
            s[i] += Double.longBitsToDouble(weightBits ^ (((zeros >>> i) & 1L) << 63));
        }
    }

    long fingerprint() {
        long fp = 0;
        for (int i = 0; i < 64; i++) {
            if (sums[i] > 0) {
                fp |= 1L << i;
            }
        }
        return fp;
    }

    void reset() {
        java.util.Arrays.fill(sums, 0);
    }
}
