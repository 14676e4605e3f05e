package dev.simhash.core;

/**
 * Names of the fields a fingerprint is stored in under its target object: the full value as a
 * {@code long} and the four 16-bit blocks as exact-match terms.
 */
public final class FingerprintFields {

    /** The full 64-bit fingerprint, a signed long (doc values are read to verify distances). */
    public static final String HASH = "hash";

    private static final String[] BLOCKS = { "b0", "b1", "b2", "b3" };

    private FingerprintFields() {}

    /** Sub-field of block j (0..3): {@code b0} .. {@code b3}, each holding {@link SimHash#blockTerm} values. */
    public static String block(int j) {
        return BLOCKS[j];
    }

    /** Full path of the hash field under {@code target}. */
    public static String hashPath(String target) {
        return target + "." + HASH;
    }

    /** Full path of block j's field under {@code target}. */
    public static String blockPath(String target, int j) {
        return target + "." + BLOCKS[j];
    }
}
