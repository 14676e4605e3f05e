package dev.simhash.core;

import java.util.function.ToDoubleFunction;

/**
 * Lends each thread one reusable {@link FeatureBag} for a fingerprint computed and read within one call, so whole-text
 * fingerprints need no tables or buffers per document.
 */
final class ThreadBags {

    private static final ThreadLocal<FeatureBag> BAG = ThreadLocal.withInitial(() -> new FeatureBag(FingerprintOptions.DEFAULTS));

    private ThreadBags() {}

    /**
     * This thread's bag, empty, set to {@code options}; the caller must {@link FeatureBag#reset()} it when done (also on
     * failure), which gives it back, and must not hand it out.
     */
    static FeatureBag lend(FingerprintOptions options, boolean adjacentPairs) {
        return lend(options, adjacentPairs, null);
    }

    /** {@link #lend(FingerprintOptions, boolean)} with per-feature factors (null: none). */
    static FeatureBag lend(FingerprintOptions options, boolean adjacentPairs, ToDoubleFunction<String> factors) {
        FeatureBag bag = BAG.get();
        if (bag.lent) {
            // a fingerprint computed while another is (e.g. from inside an analyzer): a bag of its own
            return new FeatureBag(options, adjacentPairs, factors);
        }
        bag.reset();
        bag.configure(options, adjacentPairs, factors);
        bag.lent = true;
        return bag;
    }
}
