package dev.simhash.calibrate;

/**
 * The distances between texts and their edited copies at one edit rate: the expected recall of a radius k for
 * near-duplicates that differ by that share of words. A copy without a fingerprint (too few features left) is never
 * found.
 */
public final class EditRecall {

    private final double rate;
    private final long[] histogram = new long[65];
    private int copies;
    private int withoutFingerprint;
    private long edits;

    public EditRecall(double rate) {
        this.rate = rate;
    }

    /**
     * Records one copy.
     *
     * @param distance the Hamming distance between the fingerprints of the text and of its copy, or -1 when the copy has
     *                 no fingerprint
     * @param edits    words inserted, deleted or replaced
     */
    public void add(int distance, int edits) {
        if (distance < -1 || distance > 64) {
            throw new IllegalArgumentException("a distance is between 0 and 64 (or -1 for no fingerprint), got [" + distance + "]");
        }
        copies++;
        this.edits += edits;
        if (distance < 0) {
            withoutFingerprint++;
        } else {
            histogram[distance]++;
        }
    }

    public double rate() {
        return rate;
    }

    public int copies() {
        return copies;
    }

    public int withoutFingerprint() {
        return withoutFingerprint;
    }

    /** Mean words changed per copy. */
    public double meanEdits() {
        return copies == 0 ? Double.NaN : (double) edits / copies;
    }

    /** Copies within k bits of their original. */
    public long within(int k) {
        return RandomPairs.upTo(histogram, k);
    }

    /** The share of copies within k bits of their original: the recall of radius k; NaN without copies. */
    public double recall(int k) {
        return copies == 0 ? Double.NaN : (double) within(k) / copies;
    }

    /**
     * The median distance of the copies (copies without a fingerprint count as farther than any distance); -1 when
     * more than half of them have no fingerprint or there are none.
     */
    public int medianDistance() {
        if (copies == 0) {
            return -1;
        }
        long half = (copies + 1) / 2; // the lower median's rank, 1-based
        long seen = 0;
        for (int d = 0; d <= 64; d++) {
            seen += histogram[d];
            if (seen >= half) {
                return d;
            }
        }
        return -1;
    }
}
