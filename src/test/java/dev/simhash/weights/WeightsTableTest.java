package dev.simhash.weights;

import dev.simhash.core.FingerprintSpec;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A table: lookups (listed factor, default for others), the checks on names, factors and size, and its order. */
class WeightsTableTest {

    private static WeightsTable table(Map<String, ? extends Number> f, double defaultWeight) {
        return new WeightsTable("t", FingerprintSpec.Version.V2, f, defaultWeight, Map.of("type", "uploaded"), 0);
    }

    @Test
    void listedFeaturesHaveTheirFactorOthersTheDefault() {
        WeightsTable t = table(Map.of("the", 0.1, "fox", 3.5, "the fox", 0.0), 2.0);
        assertEquals(0.1, t.applyAsDouble("the"));
        assertEquals(3.5, t.applyAsDouble("fox"));
        assertEquals(0.0, t.applyAsDouble("the fox"));
        assertEquals(2.0, t.applyAsDouble("dog"));
        assertEquals(2.0, t.applyAsDouble(""));
        assertEquals(3, t.size());
        assertEquals(List.of("fox", "the", "the fox"), List.copyOf(t.features(10).keySet()), "sorted");
        assertEquals(List.of("fox"), List.copyOf(t.features(1).keySet()));
    }

    @Test
    void manyFeaturesAllFound() {
        Map<String, Double> f = new HashMap<>();
        for (int i = 0; i < 50_000; i++) {
            f.put("w" + i, i / 7.0);
        }
        WeightsTable t = table(f, 9);
        for (int i = 0; i < 50_000; i++) {
            assertEquals(i / 7.0, t.applyAsDouble("w" + i));
        }
        assertEquals(9.0, t.applyAsDouble("w50000"));
    }

    /**
     * The digest identifies a table by its content: the name, source and creation time do not count, every weight does.
     * Pinned for one table by an independent computation (Python's hashlib over the documented encoding: length-prefixed
     * UTF-8 "simhash-weights" and version, the default weight's IEEE bits, the count, each sorted feature length-prefixed
     * with its factor's bits, all big-endian; the first 16 bytes of the SHA-256 in hex).
     */
    @Test
    void theDigestIsTheContentNotTheName() {
        Map<String, Double> f = Map.of("the", 0.5, "fox", 3.0, "中文", 1.25);
        WeightsTable t = table(f, 2.0);
        assertEquals("3ce1a2a58f686b0fbe37283674a18a88", t.digest());
        WeightsTable renamed = new WeightsTable("other-name", FingerprintSpec.Version.V2, new java.util.TreeMap<>(f), 2.0,
            Map.of("type", "computed", "index", "x"), 12345);
        assertEquals(t.digest(), renamed.digest());
        Map<String, Double> changed = new HashMap<>(f);
        changed.put("fox", 3.0000000001);
        Map<String, Double> more = new HashMap<>(f);
        more.put("dog", 1.0);
        for (WeightsTable other : List.of(table(changed, 2.0), table(more, 2.0), table(f, 2.5),
            new WeightsTable("t", FingerprintSpec.Version.V1, f, 2.0, Map.of(), 0), table(Map.of("the", 0.5, "fox", 3.0), 2.0))) {
            assertTrue(!t.digest().equals(other.digest()), other.toString());
        }
        assertEquals(table(Map.of("a", 0.0), 1).digest(), table(Map.of("a", -0.0), 1).digest(), "0 and -0 weigh the same");
    }

    @Test
    void bytesAreTheFeaturesUtf8BytesPlusEightPerFactor() {
        // "é" 2 bytes, "中" 3, "𝄞" (a surrogate pair) 4; "the fox" 7
        WeightsTable t = table(Map.of("é", 1.0, "中文", 1.0, "𝄞", 1.0, "the fox", 1.0), 1);
        assertEquals(2 + 6 + 4 + 7 + 4 * 8, t.bytes());
        assertEquals(0, table(Map.of(), 1).bytes());
        t.checkBytes();
        // 3 bytes a character: a table under the feature limits and over the byte limit
        Map<String, Double> wide = new HashMap<>();
        int count = (int) (WeightsTable.MAX_BYTES / (3 * 900 + 8)) + 1;
        for (int i = 0; i < count; i++) {
            wide.put(i + "中".repeat(900), 1.0);
        }
        WeightsTable big = table(wide, 1);
        long expected = 0;
        for (String f : wide.keySet()) {
            expected += f.getBytes(java.nio.charset.StandardCharsets.UTF_8).length + 8;
        }
        assertEquals(expected, big.bytes());
        assertTrue(expected > WeightsTable.MAX_BYTES);
        assertEquals("[features] table [t] holds " + expected + " bytes (UTF-8 bytes of its " + count + " features + 8 per factor), a table "
            + "holds at most 8388608 bytes (tables live in the cluster state); keep fewer or shorter features (e.g. a lower "
            + "[max_features] or a higher [min_df])", assertThrows(IllegalArgumentException.class, big::checkBytes).getMessage());
    }

    @Test
    void badFactorsNamesAndSizesAreRefusedNamingTheProblem() {
        assertEquals("[features] factor of [x] must be a finite number between 0 and 1000000, got [-1.0]",
            assertThrows(IllegalArgumentException.class, () -> table(Map.of("x", -1.0), 1)).getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> table(Map.of("x", Double.NaN), 1)).getMessage()
            .contains("got [NaN]"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> table(Map.of("x", Double.POSITIVE_INFINITY), 1)).getMessage()
            .startsWith("[features] factor of [x]"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> table(Map.of(), -0.5)).getMessage().startsWith("[default_weight]"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> table(Map.of("", 1.0), 1)).getMessage().startsWith("[features]"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> table(Map.of("x".repeat(1001), 1.0), 1)).getMessage()
            .contains("longer than 1000"));
        Map<String, Double> big = new HashMap<>();
        for (int i = 0; i <= WeightsTable.MAX_FEATURES; i++) {
            big.put("f" + i, 1.0);
        }
        assertTrue(assertThrows(IllegalArgumentException.class, () -> table(big, 1)).getMessage()
            .startsWith("[features] has 200001 features, a table holds at most 200000"));
        for (String bad : List.of("BAD NAME", "Upper", "..", "_x", "a/b", "")) {
            assertThrows(IllegalArgumentException.class,
                () -> new WeightsTable(bad, FingerprintSpec.Version.V2, Map.of(), 1, Map.of(), 0), bad);
        }
    }
}
