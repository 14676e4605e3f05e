package dev.simhash.core;

import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The fast path (FeatureBag + SimHashAccumulator) agrees bit for bit with the naive reference. */
@ExtendWith(TestSeeds.class)
class FeatureBagRandomizedTest {

    private static final AtomicLong SEEDS = TestSeeds.sequence();

    private static String randomToken(Random r) {
        int len = 1 + r.nextInt(8);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < len; i++) {
            switch (r.nextInt(5)) {
                case 0 -> sb.append((char) ('a' + r.nextInt(6))); // small alphabet: many repeats
                case 1 -> sb.append((char) (0x4E00 + r.nextInt(50))); // CJK
                case 2 -> sb.appendCodePoint(0x1F600 + r.nextInt(20)); // emoji (surrogate pairs)
                case 3 -> sb.append((char) (0x20 + r.nextInt(95)));
                default -> sb.appendCodePoint(r.nextInt(0x10FFFF) & ~0xF800 | 0x21); // anything but surrogates
            }
        }
        return sb.toString();
    }

    @RepeatedTest(200)
    void tokensMatchReference() {
        long seed = SEEDS.incrementAndGet();
        Random r = new Random(seed);
        int n = 1 + r.nextInt(4);
        Weighting w = Weighting.values()[r.nextInt(Weighting.values().length)];
        int minFeatures = r.nextInt(4) == 0 ? 1 + r.nextInt(30) : 1;
        List<String> tokens = new ArrayList<>();
        int count = r.nextInt(5) == 0 ? r.nextInt(4) : r.nextInt(2000);
        for (int i = 0; i < count; i++) {
            tokens.add(randomToken(r));
        }
        FeatureBag bag = new FeatureBag(new FingerprintOptions(n, w, minFeatures));
        tokens.forEach(bag::addToken);
        OptionalLong expected = ReferenceSimHash.fingerprint(tokens, n, w.optionName(), minFeatures);
        assertEquals(expected, bag.fingerprint(), "seed " + seed);
        // reuse after reset gives the same answer
        bag.reset();
        tokens.forEach(bag::addToken);
        assertEquals(expected, bag.fingerprint(), "after reset, seed " + seed);
    }

    /** A token that sometimes holds an unpaired surrogate: those switch a bag from bytes to strings mid-document. */
    private static String randomTokenMaybeMalformed(Random r, boolean malformed) {
        String t = randomToken(r);
        if (malformed && r.nextInt(50) == 0) {
            int at = r.nextInt(t.length() + 1);
            char lone = r.nextBoolean() ? (char) (0xD800 + r.nextInt(0x400)) : (char) (0xDC00 + r.nextInt(0x400));
            t = t.substring(0, at) + lone + t.substring(at);
            // may split a pair or pair up by accident: either way the string is what the bag must count
        }
        return t;
    }

    /** Tokens handed over as chars (byte mode, no string per token) count exactly as the reference's strings do, v1 and v2. */
    @RepeatedTest(200)
    void tokensAsCharsMatchReference() {
        long seed = SEEDS.incrementAndGet();
        Random r = new Random(seed);
        boolean pairs = r.nextBoolean();
        boolean malformed = r.nextBoolean();
        Weighting w = Weighting.values()[r.nextInt(Weighting.values().length)]; // (v2's bags weigh 1 whatever the options say)
        int minFeatures = r.nextInt(4) == 0 ? 1 + r.nextInt(30) : 1;
        List<String> tokens = new ArrayList<>();
        int count = r.nextInt(5) == 0 ? r.nextInt(4) : r.nextInt(2000);
        for (int i = 0; i < count; i++) {
            tokens.add(r.nextInt(3) == 0 && !tokens.isEmpty() ? tokens.get(r.nextInt(tokens.size())) : randomTokenMaybeMalformed(r, malformed));
        }
        // the reference: the feature sequence as strings, counted in order of first occurrence
        Map<String, Integer> tf = new LinkedHashMap<>();
        for (int i = 0; i < tokens.size(); i++) {
            tf.merge(tokens.get(i), 1, Integer::sum);
            if (pairs && i > 0) {
                tf.merge(tokens.get(i - 1) + " " + tokens.get(i), 1, Integer::sum);
            }
        }
        Map<String, Double> weighted = new LinkedHashMap<>();
        // pairs are simhash-v2's features, with its weights (binary: 1 each); v1 weights by the v1 reference
        tf.forEach((f, n) -> weighted.put(f, pairs ? 1.0 : ReferenceSimHash.weight(w.optionName(), n)));
        OptionalLong expected = weighted.size() < minFeatures ? OptionalLong.empty() : ReferenceSimHash.fingerprintWeighted(weighted, 1);

        FeatureBag bag = new FeatureBag(new FingerprintOptions(1, w, minFeatures), pairs);
        for (int round = 0; round < 2; round++) {
            for (String t : tokens) {
                // inside a larger buffer, as a tokenizer's term buffer is
                int pad = r.nextInt(3);
                char[] buffer = new char[t.length() + 2 * pad + r.nextInt(4)];
                java.util.Arrays.fill(buffer, 'x');
                t.getChars(0, t.length(), buffer, pad);
                bag.addToken(buffer, pad, t.length());
            }
            assertEquals(expected, bag.fingerprint(), "round " + round + ", seed " + seed);
            assertEquals(List.copyOf(tf.keySet()), bag.features(), "round " + round + ", seed " + seed);
            assertEquals(tf.size(), bag.distinctFeatures(), "seed " + seed);
            assertEquals(tokens.size(), bag.tokenCount(), "seed " + seed);
            bag.reset();
        }
    }

    @RepeatedTest(100)
    void explicitWeightsMatchReference() {
        long seed = SEEDS.incrementAndGet();
        Random r = new Random(seed);
        Map<String, Double> weights = new LinkedHashMap<>();
        int count = r.nextInt(300);
        for (int i = 0; i < count; i++) {
            double weight = r.nextBoolean() ? 1 + r.nextInt(10) : r.nextDouble() * 100 + 1e-9;
            weights.put(randomToken(r), weight);
        }
        assertEquals(ReferenceSimHash.fingerprintWeighted(weights, 1), FeatureBag.fingerprintWeighted(weights, 1), "seed " + seed);
    }

    @Test
    void noFeaturesMeansNoFingerprintNeverZero() {
        FeatureBag bag = new FeatureBag(FingerprintOptions.DEFAULTS);
        assertFalse(bag.fingerprint().isPresent());
        assertFalse(FeatureBag.fingerprintWeighted(Map.of(), 1).isPresent());
        assertThrows(IllegalStateException.class, () -> new SimHashAccumulator().fingerprint());
    }

    @Test
    void identicalFeaturesInAnyOrderGiveTheSameFingerprintUnderTf() {
        List<String> tokens = new ArrayList<>(List.of("the", "quick", "brown", "fox", "the", "lazy", "dog", "新闻", "新闻"));
        FeatureBag a = new FeatureBag(FingerprintOptions.DEFAULTS);
        tokens.forEach(a::addToken);
        java.util.Collections.reverse(tokens);
        FeatureBag b = new FeatureBag(FingerprintOptions.DEFAULTS);
        tokens.forEach(b::addToken);
        assertEquals(a.fingerprint(), b.fingerprint());
    }

    @Test
    void smallEditsGiveSmallDistances() {
        Random r = new Random(99);
        List<String> words = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            words.add("w" + r.nextInt(300));
        }
        FeatureBag a = new FeatureBag(FingerprintOptions.DEFAULTS);
        words.forEach(a::addToken);
        words.set(17, "changed");
        FeatureBag b = new FeatureBag(FingerprintOptions.DEFAULTS);
        words.forEach(b::addToken);
        int d = SimHash.distance(a.fingerprint().getAsLong(), b.fingerprint().getAsLong());
        assertTrue(d <= 6, "one edit in 400 words moved " + d + " bits");
    }

    @Test
    void invalidWeightsAndOptionsAreRejectedNamingThem() {
        SimHashAccumulator acc = new SimHashAccumulator();
        assertThrows(IllegalArgumentException.class, () -> acc.add(1, 0));
        assertThrows(IllegalArgumentException.class, () -> acc.add(1, -2));
        assertThrows(IllegalArgumentException.class, () -> acc.add(1, Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> acc.add(1, Double.POSITIVE_INFINITY));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new FingerprintOptions(0, Weighting.TF, 1))
            .getMessage().startsWith("[shingle_size]"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new FingerprintOptions(1, Weighting.TF, 0))
            .getMessage().startsWith("[min_features]"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Weighting.fromOption("idf")).getMessage().contains("[idf]"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> FeatureAnalyzer.fromOption("smartcn")).getMessage().contains("[smartcn]"));
    }

    /**
     * A simhash-v2 bag reused across documents of very different sizes (its indexes grow, are kept or given back, and are
     * emptied slot by slot), fed any tokens: short and long (beyond the cheap lookup hash's 16 bytes), CJK, emoji, tokens
     * holding a space (a pair "a b" and a token "a b" are one feature: the bag must leave its pair index for strings) and
     * unpaired surrogates (strings too). Its features, counts and fingerprint are those of the naive definition.
     */
    @RepeatedTest(20)
    void v2BagReusedAcrossDocumentsMatchesNaiveFeatures() {
        Random r = new Random(SEEDS.incrementAndGet());
        FeatureBag bag = new FeatureBag(new FingerprintOptions(FingerprintOptions.DEFAULT_SHINGLE_SIZE, Weighting.LOG_TF, 1), true);
        String[] vocabulary = new String[3000];
        for (int i = 0; i < vocabulary.length; i++) {
            vocabulary[i] = i % 7 == 0 ? "longword-" + i + "-beyond-sixteen-bytes" : "w" + Integer.toString(i, 36);
        }
        for (int doc = 0; doc < 40; doc++) {
            int n = r.nextInt(10) == 0 ? 2000 + r.nextInt(4000) : r.nextInt(40);
            boolean unpaired = false;
            LinkedHashMap<String, Integer> tf = new LinkedHashMap<>();
            String previous = null;
            for (int i = 0; i < n; i++) {
                String token = switch (r.nextInt(12)) {
                    case 0 -> "a b";
                    case 1 -> "a";
                    case 2 -> "b";
                    case 3 -> r.nextInt(50) == 0 ? "x\uD800" : randomToken(r);
                    default -> vocabulary[r.nextInt(n > 100 ? vocabulary.length : 20)];
                };
                unpaired |= token.indexOf('\uD800') >= 0;
                if (r.nextBoolean()) {
                    char[] buffer = ("..." + token + "..").toCharArray();
                    bag.addToken(buffer, 3, token.length());
                } else {
                    bag.addToken(token);
                }
                tf.merge(token, 1, Integer::sum);
                if (previous != null) {
                    tf.merge(previous + " " + token, 1, Integer::sum);
                }
                previous = token;
            }
            assertEquals(new ArrayList<>(tf.keySet()), bag.features(), "document " + doc + " of " + n + " tokens");
            if (!unpaired) {
                LinkedHashMap<String, Double> weighted = new LinkedHashMap<>();
                tf.forEach((f, c) -> weighted.put(f, 1.0)); // v2: binary
                assertEquals(FeatureBag.fingerprintWeighted(weighted, 1), bag.fingerprint(), "document " + doc + " of " + n + " tokens");
            }
            bag.reset();
        }
    }

    /** The word-wise byte comparison is Arrays.equals: every length up to 40, equal runs and a difference at each position. */
    @Test
    void sameBytesIsArraysEquals() {
        Random r = new Random(SEEDS.incrementAndGet());
        for (int len = 0; len <= 40; len++) {
            for (int round = 0; round < 20; round++) {
                byte[] a = new byte[len + 20];
                r.nextBytes(a);
                int aOff = r.nextInt(10);
                int bOff = r.nextInt(10);
                byte[] b = new byte[len + 20];
                r.nextBytes(b);
                System.arraycopy(a, aOff, b, bOff, len);
                assertTrue(ByteFeatures.sameBytes(a, aOff, b, bOff, len), "len " + len);
                for (int at = 0; at < len; at++) {
                    b[bOff + at] ^= (byte) (1 << r.nextInt(8));
                    assertFalse(ByteFeatures.sameBytes(a, aOff, b, bOff, len), "len " + len + " differing at " + at);
                    b[bOff + at] = a[aOff + at];
                }
            }
        }
    }
}
