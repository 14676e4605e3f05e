package dev.simhash.core;

import org.apache.lucene.analysis.standard.StandardTokenizer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;

import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * A deliberately naive simhash-v2, written straight from README's simhash-v2 section, to check the
 * production code ({@link SimHashV2}) against and to compute the v2 golden vectors. It reads the
 * folding table file itself and drives Lucene's StandardTokenizer directly.
 */
final class ReferenceSimHashV2 {

    private static Map<Integer, Integer> table;

    private ReferenceSimHashV2() {}

    static synchronized Map<Integer, Integer> table() {
        if (table == null) {
            Map<Integer, Integer> t = new HashMap<>();
            try (InputStream in = ReferenceSimHashV2.class.getResourceAsStream("/dev/simhash/core/char-folding-v2.tsv")) {
                for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                    if (line.isEmpty() || line.charAt(0) == '#') {
                        continue;
                    }
                    String[] p = line.split("\t");
                    t.put(p[0].codePointAt(0), p[1].codePointAt(0));
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            table = t;
        }
        return table;
    }

    /** Step 1: NFKC, then every code point lower-cased, then looked up in the table. */
    static String fold(String text) {
        String n = Normalizer.normalize(text, Normalizer.Form.NFKC);
        StringBuilder sb = new StringBuilder();
        n.codePoints().forEach(cp -> {
            int lower = Character.toLowerCase(cp);
            sb.appendCodePoint(table().getOrDefault(lower, lower));
        });
        return sb.toString();
    }

    /** Step 2: the terms of Lucene's StandardTokenizer (defaults), nothing else. */
    static List<String> tokens(String folded) {
        List<String> out = new ArrayList<>();
        try (StandardTokenizer t = new StandardTokenizer()) {
            t.setReader(new StringReader(folded));
            CharTermAttribute term = t.getAttribute(CharTermAttribute.class);
            t.reset();
            while (t.incrementToken()) {
                out.add(term.toString());
            }
            t.end();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    /** Steps 1-6 for several texts read as one token sequence; factors: feature -> multiplier (absent = 1). */
    static OptionalLong fingerprint(List<String> texts, int minFeatures, Map<String, Double> factors) {
        List<String> tokens = new ArrayList<>();
        for (String t : texts) {
            tokens.addAll(tokens(fold(t)));
        }
        // step 3: the feature sequence, then counts in order of first occurrence
        List<String> sequence = new ArrayList<>();
        for (int i = 0; i < tokens.size(); i++) {
            sequence.add(tokens.get(i));
            if (i >= 1) {
                sequence.add(tokens.get(i - 1) + " " + tokens.get(i));
            }
        }
        Map<String, Integer> tf = new LinkedHashMap<>();
        for (String f : sequence) {
            tf.put(f, tf.containsKey(f) ? tf.get(f) + 1 : 1);
        }
        // step 4: weights: 1 for every distinct feature (binary), times its factor
        Map<String, Double> weighted = new LinkedHashMap<>();
        for (Map.Entry<String, Integer> e : tf.entrySet()) {
            double factor = factors == null || !factors.containsKey(e.getKey()) ? 1.0 : factors.get(e.getKey());
            if (factor == 0) {
                continue;
            }
            weighted.put(e.getKey(), factor);
        }
        // steps 5-7: as simhash-v1 (hash, accumulate, sign), no fingerprint under min_features
        return ReferenceSimHash.fingerprintWeighted(weighted, minFeatures);
    }
}
