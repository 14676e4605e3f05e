package dev.simhash.demo;

import dev.simhash.core.MinHashSketch;
import dev.simhash.core.SimHashV2;

import java.util.HashSet;
import java.util.Set;

/**
 * The exact share of minhash-v1 shingles two texts have in common (their Jaccard similarity), computed in process from
 * the shingles themselves: what the sketches stored on the node estimate, so the demo can print both.
 */
final class Shingles {

    private Shingles() {}

    /** The set of minhash-v1 shingle hashes of a text (runs of 3 simhash-v2 tokens at every length). */
    static Set<Long> of(String text) {
        Set<Long> out = new HashSet<>();
        for (long h : MinHashSketch.V1.shingleHashes(SimHashV2.tokens(text))) {
            out.add(h);
        }
        return out;
    }

    /** The exact Jaccard similarity of the two texts' shingle sets (0 when either has none). */
    static double jaccard(String a, String b) {
        Set<Long> x = of(a);
        Set<Long> y = of(b);
        Set<Long> union = new HashSet<>(x);
        union.addAll(y);
        if (union.isEmpty()) {
            return 0;
        }
        x.retainAll(y);
        return x.size() / (double) union.size();
    }
}
