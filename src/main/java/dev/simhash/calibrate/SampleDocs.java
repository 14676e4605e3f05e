package dev.simhash.calibrate;

import dev.simhash.core.MinHashSketch;

import java.util.Comparator;
import java.util.List;

/**
 * The sampled documents in the sample's order, the fingerprints of those that have one and which of them have another one
 * within {@link Calibration#MAX_K} bits (only such pairs are ever asked whether their texts are near-duplicates, so only
 * their texts are sketched); then all pairs of the fingerprints compared.
 */
final class SampleDocs {

    /** One sampled document: where it is, its random score and its stored fingerprint (null: none). */
    record Doc(String index, String id, float score, Long stored) {}

    /** The pairs of the sample: under the radius rule, and under the verified rule on a field with a sketch (else null). */
    record Compared(RandomPairs pairs, VerifiedPairs verified) {}

    /** In the order of the seeded random scores (ties by index and id): the documents to edit are the first. */
    static final Comparator<Doc> SAMPLE_ORDER = Comparator.comparingDouble((Doc d) -> -d.score()).thenComparing(Doc::index)
        .thenComparing(Doc::id);

    private final List<Doc> docs;
    private final long[] fingerprints;
    /** Of each document, its place among the fingerprints; -1 without one. */
    private final int[] fingerprintIndex;
    private final boolean[] near;

    /**
     * @param docs           the sample, in its order
     * @param checkCancelled stops a cancelled request while the pairs within {@link Calibration#MAX_K} bits are looked for
     */
    SampleDocs(List<Doc> docs, Runnable checkCancelled) {
        this.docs = docs;
        fingerprintIndex = new int[docs.size()];
        int n = 0;
        for (int i = 0; i < docs.size(); i++) {
            fingerprintIndex[i] = docs.get(i).stored() == null ? -1 : n++;
        }
        fingerprints = new long[n];
        for (int i = 0; i < docs.size(); i++) {
            if (fingerprintIndex[i] >= 0) {
                fingerprints[fingerprintIndex[i]] = docs.get(i).stored();
            }
        }
        near = new boolean[n];
        for (int i = 0; i < n; i++) {
            if (i % 256 == 0) {
                checkCancelled.run();
            }
            for (int j = i + 1; j < n; j++) {
                if (Long.bitCount(fingerprints[i] ^ fingerprints[j]) <= Calibration.MAX_K) {
                    near[i] = true;
                    near[j] = true;
                }
            }
        }
    }

    Doc doc(int position) {
        return docs.get(position);
    }

    int size() {
        return docs.size();
    }

    /** Documents with a fingerprint. */
    int withFingerprint() {
        return fingerprints.length;
    }

    /** The place among the fingerprints of the document at {@code position}; -1 without one. */
    int fingerprintIndex(int position) {
        return fingerprintIndex[position];
    }

    /** Whether the fingerprint at {@code f} has another one within {@link Calibration#MAX_K} bits. */
    boolean near(int f) {
        return near[f];
    }

    /**
     * All pairs of the fingerprints; two documents are related when both texts were sketched and their token bigrams'
     * Jaccard similarity is at least {@link TextSimilarity#RELATED_JACCARD}.
     *
     * @param sketches  the token-bigram sketches by fingerprint (null: not sketched)
     * @param minhashes the similarity sketches by fingerprint, with {@code minhash}; both null without a sketch
     */
    Compared compare(ShingleSketch[] sketches, byte[][] minhashes, MinHashSketch minhash) {
        RandomPairs.Related related = (i, j) -> sketches[i] != null && sketches[j] != null
            && sketches[i].jaccard(sketches[j]) >= TextSimilarity.RELATED_JACCARD;
        RandomPairs pairs = RandomPairs.of(fingerprints, related, Calibration.MAX_K);
        VerifiedPairs verified = minhash == null ? null : new VerifiedPairs(fingerprints, minhashes, minhash, related, pairs);
        return new Compared(pairs, verified);
    }
}
