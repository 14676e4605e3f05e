package dev.simhash.calibrate;

import dev.simhash.core.FeatureBag;
import dev.simhash.core.SimHash;

import java.util.Arrays;
import java.util.Locale;

/**
 * A bounded summary of a text's token bigrams for estimating the Jaccard similarity of two texts (calibrate reads the
 * tokens as the field's fingerprint reads the text: {@link Builder}): the {@code k} smallest distinct 64-bit hashes of its shingles (a bottom-k sketch),
 * built in one pass over the text without holding its shingles. A text with fewer than {@code k} distinct shingles keeps
 * all of them, and two such sketches give the exact Jaccard similarity (of the hashes; a 64-bit collision is negligible).
 * Otherwise {@link #jaccard} is the bottom-k estimate: of the k smallest hashes of the union, the share that both texts
 * have, an unbiased estimate of J with a standard error of at most {@code sqrt(J (1 - J) / k)} (0.031 at J = 0.5 for
 * k = 256).
 */
public final class ShingleSketch {

    /** Hashes kept per text: 2 KiB, and a standard error of at most 0.031 near the related threshold. */
    public static final int DEFAULT_SIZE = 256;
    /** Heap bytes of a sketch besides its hashes: the object and the array's header. */
    private static final long OVERHEAD_BYTES = 48;
    private static final long BIGRAM_MIX = 0x9E3779B97F4A7C15L;

    private final int k;
    private final long[] hashes;
    private final boolean complete;

    private ShingleSketch(int k, long[] hashes, boolean complete) {
        this.k = k;
        this.hashes = hashes;
        this.complete = complete;
    }

    /**
     * The sketch of a text's lowercased word bigrams (its one word, if it has one word), words as {@link TextEdits#scan}
     * finds them, keeping at most k hashes: the same as a {@link Builder} fed with the hashes of those words.
     */
    public static ShingleSketch of(String text, int k) {
        Builder b = builder(k);
        TextEdits.scan(text, (start, end, ideographic) -> b.add(SimHash.featureHash(text.substring(start, end).toLowerCase(Locale.ROOT))));
        return b.build();
    }

    /** A builder that takes a text's tokens one by one, by their 64-bit hashes, and sketches their bigrams. */
    public static Builder builder(int k) {
        return new Builder(k);
    }

    /**
     * Sketches the bigrams of a token sequence that arrives as token hashes (e.g. from a fingerprinter, as the field reads
     * its text: {@link FeatureBag.TokenHashes}), holding at most 2k hashes; a sequence of one token is that token.
     */
    public static final class Builder implements FeatureBag.TokenHashes {
        private final BottomK bottom;
        private long previous;
        private long tokens;

        private Builder(int k) {
            this.bottom = new BottomK(k);
        }

        @Override
        public void add(long tokenHash) {
            if (tokens > 0) {
                bottom.add(mix(previous * BIGRAM_MIX + tokenHash));
            }
            previous = tokenHash;
            tokens++;
        }

        /** The sketch of the tokens added so far (empty without tokens). Call once. */
        public ShingleSketch build() {
            if (tokens == 1) {
                // a text of one token is that token; a different mix than any bigram's
                bottom.add(mix(previous));
            }
            return bottom.sketch();
        }
    }

    /** The sketch of a set given as its 64-bit hashes (repeats allowed), keeping the k smallest: for sets built by tests. */
    public static ShingleSketch ofHashes(long[] hashes, int k) {
        BottomK bottom = new BottomK(k);
        for (long h : hashes) {
            bottom.add(h);
        }
        return bottom.sketch();
    }

    /** The hashes kept per text at most. */
    public int k() {
        return k;
    }

    /** The hashes kept: at most k. */
    public int size() {
        return hashes.length;
    }

    /** Whether the sketch holds every shingle of its text, so that two complete sketches compare exactly. */
    public boolean complete() {
        return complete;
    }

    /** An estimate of the heap bytes a sketch of up to k hashes takes. */
    public static long bytes(int k) {
        return OVERHEAD_BYTES + 8L * k;
    }

    /**
     * The Jaccard similarity of the two texts' shingle sets: exact when both sketches are complete, else the bottom-k
     * estimate. 0 when both texts have no shingle.
     *
     * @throws IllegalArgumentException when the sketches keep different numbers of hashes
     */
    public double jaccard(ShingleSketch other) {
        if (other.k != k) {
            throw new IllegalArgumentException("sketches of different sizes cannot be compared: [" + k + "] and [" + other.k + "]");
        }
        long[] a = hashes;
        long[] b = other.hashes;
        // the smallest hashes of the union, in order: all of it when both sets are whole, else its k smallest, which are
        // the k smallest of A u B; each is in both sets exactly when it is in both sketches
        int limit = complete && other.complete ? Integer.MAX_VALUE : k;
        int i = 0;
        int j = 0;
        int union = 0;
        int common = 0;
        while (union < limit && (i < a.length || j < b.length)) {
            if (j >= b.length || (i < a.length && a[i] < b[j])) {
                i++;
            } else if (i >= a.length || b[j] < a[i]) {
                j++;
            } else {
                common++;
                i++;
                j++;
            }
            union++;
        }
        return union == 0 ? 0 : (double) common / union;
    }

    /** The murmur3 64-bit finalizer: spreads a combination of word hashes over all bits, so the smallest are a random sample. */
    static long mix(long h) {
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return h;
    }

    /** Collects the k smallest distinct values of a stream in a buffer of 2k, compacted when full. */
    private static final class BottomK {
        private final int k;
        private long[] buffer;
        private int size;
        /** The k-th smallest distinct value so far once k are known: larger values can never be kept. */
        private long threshold = Long.MAX_VALUE;
        private boolean full;
        private boolean dropped;

        BottomK(int k) {
            if (k < 1) {
                throw new IllegalArgumentException("[k] must be at least 1, got [" + k + "]");
            }
            this.k = k;
            this.buffer = new long[Math.min(2 * k, 64)];
        }

        void add(long h) {
            if (full && h >= threshold) {
                dropped |= h > threshold;
                return;
            }
            if (size == buffer.length) {
                if (buffer.length < 2 * k) {
                    buffer = Arrays.copyOf(buffer, Math.min(2 * k, buffer.length * 2));
                } else {
                    compact();
                    if (full && h >= threshold) {
                        dropped |= h > threshold;
                        return;
                    }
                }
            }
            buffer[size++] = h;
        }

        private void compact() {
            Arrays.sort(buffer, 0, size);
            int distinct = 0;
            for (int i = 0; i < size; i++) {
                if (distinct == 0 || buffer[i] != buffer[distinct - 1]) {
                    buffer[distinct++] = buffer[i];
                }
            }
            if (distinct >= k) {
                dropped |= distinct > k;
                distinct = k;
                full = true;
                threshold = buffer[k - 1];
            }
            size = distinct;
        }

        ShingleSketch sketch() {
            compact();
            return new ShingleSketch(k, Arrays.copyOf(buffer, size), !dropped);
        }
    }
}
