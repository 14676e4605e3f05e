package dev.simhash.core;

import com.dynatrace.hash4j.hashing.Hashing;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * A deliberately naive simhash-v1, written straight from the README's contract, to check the
 * production code against (and to compute the golden vectors).
 */
final class ReferenceSimHash {

    private ReferenceSimHash() {}

    static List<String> features(List<String> tokens, int shingleSize) {
        List<String> out = new ArrayList<>();
        if (tokens.isEmpty()) {
            return out;
        }
        if (tokens.size() < shingleSize) {
            out.add(String.join(" ", tokens));
            return out;
        }
        for (int i = 0; i + shingleSize <= tokens.size(); i++) {
            out.add(String.join(" ", tokens.subList(i, i + shingleSize)));
        }
        return out;
    }

    static double weight(String weighting, int tf) {
        switch (weighting) {
            case "tf":
                return tf;
            case "binary":
                return 1;
            case "log_tf":
                return 1 + Math.log(tf);
            default:
                throw new IllegalArgumentException(weighting);
        }
    }

    static OptionalLong fingerprint(List<String> tokens, int shingleSize, String weighting, int minFeatures) {
        Map<String, Integer> tf = new LinkedHashMap<>();
        for (String f : features(tokens, shingleSize)) {
            tf.merge(f, 1, Integer::sum);
        }
        Map<String, Double> weighted = new LinkedHashMap<>();
        tf.forEach((f, n) -> weighted.put(f, weight(weighting, n)));
        return fingerprintWeighted(weighted, minFeatures);
    }

    static OptionalLong fingerprintWeighted(Map<String, Double> weighted, int minFeatures) {
        if (weighted.isEmpty() || weighted.size() < minFeatures) {
            return OptionalLong.empty();
        }
        long[] hashes = new long[weighted.size()];
        double[] weights = new double[weighted.size()];
        int n = 0;
        for (Map.Entry<String, Double> e : weighted.entrySet()) {
            hashes[n] = Hashing.xxh3_64(0L).hashBytesToLong(e.getKey().getBytes(StandardCharsets.UTF_8));
            weights[n++] = e.getValue();
        }
        return OptionalLong.of(accumulate(hashes, weights, n));
    }

    /** Steps 4 and 5 on the first n feature hashes and weights, in order: per bit, +w or -w as doubles; bit = sum > 0. */
    static long accumulate(long[] hashes, double[] weights, int n) {
        double[] v = new double[64];
        for (int f = 0; f < n; f++) {
            long h = hashes[f];
            for (int i = 0; i < 64; i++) {
                if (((h >> i) & 1) == 1) {
                    v[i] += weights[f];
                } else {
                    v[i] -= weights[f];
                }
            }
        }
        long fp = 0;
        for (int i = 0; i < 64; i++) {
            if (v[i] > 0) {
                fp |= 1L << i;
            }
        }
        return fp;
    }

    static int distance(long a, long b) {
        int d = 0;
        for (int i = 0; i < 64; i++) {
            if (((a >> i) & 1) != ((b >> i) & 1)) {
                d++;
            }
        }
        return d;
    }
}
