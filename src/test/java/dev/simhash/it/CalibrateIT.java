package dev.simhash.it;

import dev.simhash.calibrate.CalibrationTable;
import dev.simhash.it.support.Fixtures;
import dev.simhash.it.support.RealNodeExtension;
import dev.simhash.it.support.Rest;
import dev.simhash.it.support.SampleCorpus;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static dev.simhash.it.support.Rest.ordered;
import static dev.simhash.it.support.Rest.toJson;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code _simhash/calibrate} on a real node: a few hundred English and Chinese texts in a {@code simhash} multi-field
 * and a {@code copy_to} target. The random-pair distribution of a sample that covers the whole index equals the test's
 * own brute force over the fingerprints it reads back; rates and recalls are monotone as they must be; the recommended
 * radius keeps to the false-match target on the sample; the same seed gives the same report; bad requests are 400 or 404.
 */
@ExtendWith(RealNodeExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CalibrateIT {

    static final String INDEX = "calib-texts";
    static final String RATES = "1%,2%,5%,10%";

    private final Rest rest;
    /** Fingerprints of body.simhash read back from the index, by id. */
    private final Map<String, Long> fingerprints = new LinkedHashMap<>();
    /** The body texts, by id. */
    private final Map<String, String> bodies = new LinkedHashMap<>();
    private int docs;

    CalibrateIT(Rest rest) {
        this.rest = rest;
    }

    /**
     * The sample corpus plus texts made of 3 to 6 of its sentences of one language, picked at random (seeded): related
     * texts (shared sentences) and unrelated ones, as in real collections.
     */
    static List<Map<String, Object>> texts() {
        List<SampleCorpus.Doc> demo = SampleCorpus.load().docs();
        Map<String, List<String>> sentences = new LinkedHashMap<>();
        List<Map<String, Object>> out = new ArrayList<>();
        for (SampleCorpus.Doc d : demo) {
            out.add(Map.of("id", d.id(), "lang", d.lang(), "title", d.kind() + " " + d.id(), "body", d.body()));
            for (String s : d.body().split("(?<=[。！？.!?])\\s*")) {
                if (!s.isBlank()) {
                    sentences.computeIfAbsent(d.lang(), k -> new ArrayList<>()).add(s);
                }
            }
        }
        Random r = new Random(2026);
        for (int i = 0; i < 300; i++) {
            String lang = i % 2 == 0 ? "en" : "zh";
            List<String> pool = sentences.get(lang);
            StringBuilder body = new StringBuilder();
            int n = 3 + r.nextInt(4);
            for (int s = 0; s < n; s++) {
                body.append(pool.get(r.nextInt(pool.size()))).append(lang.equals("en") ? " " : "");
            }
            out.add(Map.of("id", "mix-" + i, "lang", lang, "title", "mix " + lang + " " + i, "body", body.toString().trim()));
        }
        return out;
    }

    @BeforeAll
    void load() {
        rest.delete("/calib-*");
        rest.ok("PUT", "/" + INDEX, """
            {"settings": {"number_of_shards": 2, "number_of_replicas": 0},
             "mappings": {"properties": {"lang": {"type": "keyword"},
               "title": {"type": "text", "copy_to": ["all_fp", "title_fp"]},
               "body": {"type": "text", "copy_to": "all_fp", "fields": {"simhash": {"type": "simhash"}}},
               "all_fp": {"type": "simhash"}, "title_fp": {"type": "simhash"}}}}""");
        StringBuilder bulk = new StringBuilder();
        List<Map<String, Object>> texts = texts();
        for (Map<String, Object> t : texts) {
            Map<String, Object> source = new LinkedHashMap<>(t);
            String id = (String) source.remove("id");
            bodies.put(id, (String) source.get("body"));
            bulk.append(toJson(Map.of("index", Map.of("_id", id)))).append('\n').append(toJson(source)).append('\n');
        }
        // one document without text: no fingerprint
        bulk.append(toJson(Map.of("index", Map.of("_id", "empty")))).append('\n').append(toJson(Map.of("lang", "en"))).append('\n');
        Rest.Answer a = rest.bulk("/" + INDEX + "/_bulk?refresh=true", bulk.toString());
        assertEquals(200, a.status(), a.toString());
        assertEquals(Boolean.FALSE, a.at("errors"), a.toString());
        docs = texts.size() + 1;

        Rest.Answer read = rest.ok("POST", "/" + INDEX + "/_search", toJson(Map.of("size", 1000, "_source", false,
            "docvalue_fields", List.of(Map.of("field", "body.simhash", "format", "long")))));
        for (Map<String, Object> hit : read.<List<Map<String, Object>>>at("hits.hits")) {
            @SuppressWarnings("unchecked")
            Map<String, List<Object>> f = (Map<String, List<Object>>) hit.get("fields");
            if (f != null && f.get("body.simhash") != null) {
                fingerprints.put((String) hit.get("_id"), ((Number) f.get("body.simhash").get(0)).longValue());
            }
        }
        assertEquals(docs - 1, fingerprints.size());

        rest.ok("PUT", "/calib-object", "{\"mappings\": {\"properties\": {\"body\": {\"type\": \"text\"}, \"simhash\": " + Fixtures.FP_MAPPING
            + "}}}");
        rest.ok("PUT", "/calib-ready", "{\"mappings\": {\"properties\": {\"fp\": {\"type\": \"simhash\", \"input\": \"fingerprint\"}}}}");
    }

    @AfterAll
    void drop() {
        rest.delete("/calib-*");
    }

    Rest.Answer calibrate(String index, Map<String, Object> body) {
        return rest.post("/" + index + "/_simhash/calibrate", toJson(body));
    }


    static double num(Object o) {
        return ((Number) o).doubleValue();
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> recall(Map<String, Object> row) {
        return (Map<String, Object>) row.get("recall");
    }

    @Test
    void wholeIndexSample() throws IOException {
        Rest.Answer a = calibrate(INDEX, ordered("field", "body.simhash", "sample_size", 2000));
        System.out.println("[calibrate] " + a.body());
        assertEquals(200, a.status(), a.toString());
        // docs/calibrate.md shows this report as a table: it must be this report's
        String page = Files.readString(Path.of("docs", "calibrate.md"));
        String start = "<!-- calibrate-table: the report of CalibrateIT.wholeIndexSample, checked by it -->\n";
        int from = page.indexOf(start);
        assertTrue(from >= 0, "the table's marker in docs/calibrate.md");
        String documented = page.substring(from + start.length(), page.indexOf("<!-- end of calibrate-table -->", from));
        assertEquals(documented, CalibrationTable.markdown(a.json()), "the table in docs/calibrate.md; the live report: " + a.body());
        assertEquals("body.simhash", a.at("field"));
        assertEquals("body", a.at("source_field"));
        assertEquals(List.of(INDEX), a.at("indices"));
        // the field's own options, whatever this plugin's default version is
        assertEquals(rest.ok("GET", "/" + INDEX + "/_mapping", null).<Object>at(INDEX + ".mappings.properties.body.fields.simhash.version"),
            a.at("fingerprint.version"));
        assertEquals(0, ((Number) a.at("seed")).intValue());
        assertEquals(docs, ((Number) a.at("sample.docs_total")).intValue());
        assertEquals(docs - 1, ((Number) a.at("sample.docs_with_fingerprint_total")).intValue());
        assertEquals(docs, ((Number) a.at("sample.sampled")).intValue());
        assertEquals(1, ((Number) a.at("sample.sampled_without_fingerprint")).intValue());
        assertEquals(docs - 1, ((Number) a.at("sample.sampled_with_text")).intValue());
        assertEquals(docs - 1, ((Number) a.at("sample.edited_docs")).intValue());
        assertEquals(0, ((Number) a.at("sample.stored_fingerprint_differs")).intValue(), "a multi-field fingerprints its parent's text");
        assertTrue(num(a.at("sample.median_features")) >= 20, a.toString());
        assertTrue(num(a.at("sample.median_text_chars")) > 50, a.toString());

        // the random pairs of a sample of the whole index are all pairs of its fingerprints: the test's own brute force
        // and pairs within 16 bits whose bodies share at least half of their word bigrams are related, not false matches
        long[] histogram = new long[65];
        long[] related = new long[65];
        List<String> ids = List.copyOf(fingerprints.keySet());
        for (int i = 0; i < ids.size(); i++) {
            for (int j = i + 1; j < ids.size(); j++) {
                int d = Long.bitCount(fingerprints.get(ids.get(i)) ^ fingerprints.get(ids.get(j)));
                histogram[d]++;
                if (d <= 16 && jaccard(bigrams(ids.get(i)), bigrams(ids.get(j))) >= 0.5) {
                    related[d]++;
                }
            }
        }
        List<Long> fps = List.copyOf(fingerprints.values());
        long pairs = (long) fps.size() * (fps.size() - 1) / 2;
        assertEquals(pairs, ((Number) a.at("random_pairs.pairs")).longValue());
        List<Number> atDistance = a.at("random_pairs.pairs_at_distance");
        for (int d = 0; d <= 64; d++) {
            assertEquals(histogram[d], atDistance.get(d).longValue(), "pairs at distance " + d);
        }

        List<Map<String, Object>> byK = a.at("by_k");
        assertEquals(17, byK.size());
        long within = 0;
        long relatedWithin = 0;
        double previousRate = -1;
        Map<String, Object> previousRecall = null;
        for (int k = 0; k <= 16; k++) {
            Map<String, Object> row = byK.get(k);
            assertEquals(k, ((Number) row.get("k")).intValue());
            within += histogram[k];
            relatedWithin += related[k];
            assertEquals(within, ((Number) row.get("random_pairs_within")).longValue());
            assertEquals(relatedWithin, ((Number) row.get("related_pairs_within")).longValue(), "related pairs within " + k);
            assertEquals((double) (within - relatedWithin) / pairs, num(row.get("observed_false_match_rate")), 1e-12);
            double rate = num(row.get("false_match_rate"));
            assertTrue(rate >= num(row.get("observed_false_match_rate")));
            assertTrue(rate >= previousRate, "the false-match rate is monotone in k: " + byK);
            previousRate = rate;
            Map<String, Object> recall = recall(row);
            assertEquals(List.of(RATES.split(",")), List.copyOf(recall.keySet()));
            // more edits, fewer copies found (within sampling noise: copies are edited independently per rate)
            assertTrue(num(recall.get("1%")) + 0.03 >= num(recall.get("2%")), row.toString());
            assertTrue(num(recall.get("2%")) + 0.03 >= num(recall.get("5%")), row.toString());
            assertTrue(num(recall.get("5%")) + 0.03 >= num(recall.get("10%")), row.toString());
            if (previousRecall != null) {
                for (String rateName : RATES.split(",")) {
                    assertTrue(num(recall.get(rateName)) >= num(previousRecall.get(rateName)), "recall grows with k: " + byK);
                }
            }
            previousRecall = recall;
        }
        // far apart at the ends: 10% of the words changed moves fingerprints much more than 1%
        assertTrue(num(recall(byK.get(3)).get("1%")) > num(recall(byK.get(3)).get("10%")) + 0.2, byK.get(3).toString());
        assertTrue(num(recall(byK.get(16)).get("10%")) > num(recall(byK.get(0)).get("10%")), byK.toString());

        // the recommendation keeps to the target on the sample; its recall is that row's
        int k = ((Number) a.at("recommendation.max_distance")).intValue();
        assertEquals(1e-6, num(a.at("recommendation.max_false_match_rate")), 0);
        long withinK = 0;
        for (int d = 0; d <= k; d++) {
            withinK += histogram[d] - related[d];
        }
        assertTrue((double) withinK / pairs <= 1e-6, "k=" + k + " " + a);
        assertTrue(num(a.at("recommendation.false_match_rate")) <= 1e-6);
        assertEquals(recall(byK.get(k)), a.at("recommendation.recall"));
        assertTrue(num(byK.get(Math.min(16, k + 1)).get("false_match_rate")) > 1e-6 || k == 16, byK.toString());
        List<Map<String, Object>> edits = a.at("edits");
        assertEquals(4, edits.size());
        assertEquals("10%", edits.get(3).get("rate"));
        assertEquals(docs - 1, ((Number) edits.get(3).get("copies")).intValue());
        assertTrue(num(edits.get(3).get("mean_words_changed")) > num(edits.get(0).get("mean_words_changed")));
        // the planted near-duplicates of the sample corpus are related pairs within a few bits
        assertTrue(((Number) byK.get(8).get("related_pairs_within")).intValue() >= 5, byK.get(8).toString());
    }

    /** The token bigrams of each body, by id, as the node's {@code simhash_v2} analyzer shows the field's tokens. */
    private final Map<String, Set<String>> bigramsById = new HashMap<>();

    /**
     * The bigrams of a body's tokens (its one token, if it has one) as a simhash-v2 field reads its text: the tokens of
     * type {@code token} that {@code _analyze} with the {@code simhash_v2} analyzer shows (docs/field-type.md); the
     * test's own reading of "related" in docs/calibrate.md.
     */
    Set<String> bigrams(String id) {
        return bigramsById.computeIfAbsent(id, i -> bigramsOfText(bodies.get(i)));
    }

    Set<String> bigramsOfText(String text) {
        Rest.Answer a = rest.ok("POST", "/_analyze", toJson(Map.of("analyzer", "simhash_v2", "text", text)));
        List<String> tokens = new ArrayList<>();
        for (Map<String, Object> t : a.<List<Map<String, Object>>>at("tokens")) {
            if ("token".equals(t.get("type"))) {
                tokens.add((String) t.get("token"));
            }
        }
        Set<String> out = new HashSet<>();
        if (tokens.size() == 1) {
            out.add(tokens.get(0));
        }
        for (int i = 1; i < tokens.size(); i++) {
            out.add(tokens.get(i - 1) + " " + tokens.get(i));
        }
        return out;
    }

    static double jaccard(Set<String> a, Set<String> b) {
        Set<String> union = new HashSet<>(a);
        union.addAll(b);
        Set<String> common = new HashSet<>(a);
        common.retainAll(b);
        return union.isEmpty() ? 0 : (double) common.size() / union.size();
    }

    /** The thresholds of the report's {@code by_similarity}. */
    static final double[] GRID = { 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95 };

    /**
     * The candidate radius of a threshold, the test's own reading of docs/spec/minhash-v1.md ("Candidate radius"): the
     * smallest r with P[Binomial(64, p) <= r] >= 0.95, at most 16, p = arccos(g) / pi, g = (q + q^2) / 2,
     * q = (2s / (1 + s))^(1/2).
     */
    static int specRadius(double s) {
        double q = Math.sqrt(2 * s / (1 + s));
        double p = Math.acos(Math.min(1, (q + q * q) / 2)) / Math.PI;
        double cdf = 0;
        for (int r = 0; r <= 64; r++) {
            double logC = 0;
            for (int i = 1; i <= r; i++) {
                logC += Math.log(64 - r + i) - Math.log(i);
            }
            cdf += Math.exp(logC + r * Math.log(p) + (64 - r) * Math.log(1 - p));
            if (cdf >= 0.95) {
                return Math.min(r, 16);
            }
        }
        return 16;
    }

    /** The minhash-v1 estimate of two stored sketches (512 one-bit bins, bytes 0-63; the band keys follow): 2 (equal bins / 512) - 1, within [0, 1]. */
    static double sketchSimilarity(byte[] a, byte[] b) {
        int differ = 0;
        for (int i = 0; i < 64; i++) {
            differ += Integer.bitCount((a[i] ^ b[i]) & 0xFF);
        }
        double match = (512 - differ) / 512.0;
        return Math.max(0, Math.min(1, (match - 0.5) / 0.5));
    }

    @Test
    void theVerifiedRuleOnAFieldWithASketch() {
        // the radii the test derives agree with the spec's table
        assertEquals(List.of(16, 16, 16, 13, 10, 7), List.of(specRadius(0.5), specRadius(0.6), specRadius(0.7), specRadius(0.8),
            specRadius(0.9), specRadius(0.95)));
        assertEquals("minhash-v1", rest.ok("GET", "/" + INDEX + "/_mapping", null)
            .<Object>at(INDEX + ".mappings.properties.body.fields.simhash.sketch"), "a new text field has a sketch by default");
        Rest.Answer a = calibrate(INDEX, ordered("field", "body.simhash", "sample_size", 2000));
        System.out.println("[calibrate-verified] " + a.body());
        assertEquals(200, a.status(), a.toString());
        assertEquals("minhash-v1", a.at("sketch"));

        // the stored sketches, read back as a user would: the report's pairs must be the test's brute force over them
        Rest.Answer read = rest.ok("POST", "/" + INDEX + "/_search", toJson(Map.of("size", 1000, "_source", false,
            "fields", List.of(Map.of("field", "body.simhash", "format", "minhash-v1")))));
        Map<String, byte[]> sketches = new LinkedHashMap<>();
        for (Map<String, Object> hit : read.<List<Map<String, Object>>>at("hits.hits")) {
            @SuppressWarnings("unchecked")
            Map<String, List<Object>> f = (Map<String, List<Object>>) hit.get("fields");
            if (f != null && f.get("body.simhash") != null) {
                sketches.put((String) hit.get("_id"), java.util.Base64.getDecoder().decode((String) f.get("body.simhash").get(0)));
            }
        }
        assertEquals(fingerprints.keySet(), sketches.keySet());
        List<String> ids = List.copyOf(fingerprints.keySet());
        long[] matched = new long[GRID.length];
        long[] related = new long[GRID.length];
        for (int i = 0; i < ids.size(); i++) {
            for (int j = i + 1; j < ids.size(); j++) {
                int d = Long.bitCount(fingerprints.get(ids.get(i)) ^ fingerprints.get(ids.get(j)));
                double sim = sketchSimilarity(sketches.get(ids.get(i)), sketches.get(ids.get(j)));
                Boolean rel = null;
                for (int t = 0; t < GRID.length; t++) {
                    if (d <= specRadius(GRID[t]) && sim >= GRID[t]) {
                        matched[t]++;
                        if (rel == null) {
                            rel = jaccard(bigrams(ids.get(i)), bigrams(ids.get(j))) >= 0.5;
                        }
                        related[t] += rel ? 1 : 0;
                    }
                }
            }
        }
        long pairs = (long) ids.size() * (ids.size() - 1) / 2;
        List<Map<String, Object>> rows = a.at("by_similarity");
        assertEquals(GRID.length, rows.size());
        double previousRate = 2;
        Double rule = null;
        for (int t = 0; t < GRID.length; t++) {
            Map<String, Object> row = rows.get(t);
            assertEquals(GRID[t], num(row.get("min_similarity")), 0);
            assertEquals(specRadius(GRID[t]), ((Number) row.get("radius")).intValue());
            assertEquals(matched[t], ((Number) row.get("random_pairs_above")).longValue(), "pairs above " + GRID[t]);
            assertEquals(related[t], ((Number) row.get("related_pairs_above")).longValue(), "related pairs above " + GRID[t]);
            assertEquals((double) (matched[t] - related[t]) / pairs, num(row.get("observed_false_match_rate")), 1e-12);
            double rate = num(row.get("false_match_rate"));
            assertTrue(rate >= num(row.get("observed_false_match_rate")), row.toString());
            assertTrue(rate <= previousRate, "the false-match rate falls as the threshold rises: " + rows);
            previousRate = rate;
            if (rule == null && rate <= 1e-6) {
                rule = GRID[t];
            }
            // the verified rule finds no more copies than the radius alone
            Map<String, Object> byRadius = recall(a.<List<Map<String, Object>>>at("by_k").get(specRadius(GRID[t])));
            for (String rateName : RATES.split(",")) {
                assertTrue(num(recall(row).get(rateName)) <= num(byRadius.get(rateName)), row + " vs " + byRadius);
                if (t > 0) {
                    assertTrue(num(recall(row).get(rateName)) <= num(recall(rows.get(t - 1)).get(rateName)), "recall falls: " + rows);
                }
            }
        }
        // the planted near-duplicates are matched, and are related: not false matches
        assertTrue(matched[6] >= 5 && related[6] >= 5, "pairs above 0.8: " + matched[6] + ", related " + related[6]);

        // the documented rule: the lowest threshold within the target, else the default 0.8
        double expected = rule == null ? 0.8 : rule;
        assertEquals(expected, num(a.at("similarity_recommendation.min_similarity")), 0, a.toString());
        assertEquals(rule == null ? "default" : "lowest_within_target", a.at("similarity_recommendation.chosen_by"));
        int row = (int) Math.round(expected * 20) - 10;
        assertEquals(rows.get(row).get("recall"), a.at("similarity_recommendation.recall"));
        assertEquals(specRadius(expected), ((Number) a.at("similarity_recommendation.radius")).intValue());
        // the radius recommendation is unchanged beside it
        assertNotNull(a.at("recommendation.max_distance"));

        // the edited copies' similarity to their originals: identical copies are common at 1%, rarer at 10%
        List<Map<String, Object>> edits = a.at("edits");
        for (Map<String, Object> e : edits) {
            assertTrue(num(e.get("p5_similarity")) <= num(e.get("median_similarity")), e.toString());
            assertEquals(0, ((Number) e.get("copies_without_sketch")).intValue(), e.toString());
        }
        assertTrue(num(edits.get(0).get("median_similarity")) > num(edits.get(3).get("median_similarity")), edits.toString());
        assertTrue(num(edits.get(0).get("median_similarity")) >= 0.9, edits.toString());
        // a copy with 1% of its words changed is mostly found at the default threshold
        assertTrue(num(recall(rows.get(6)).get("1%")) >= 0.8, rows.get(6).toString());
    }

    @Test
    void aTargetNoThresholdMeetsRecommendsTheDefault() {
        // every threshold's rate is at least an estimate far above 1e-300 (the radius's rate times the sketch's chance)
        Rest.Answer a = calibrate(INDEX, ordered("field", "body.simhash", "sample_size", 2000, "max_false_match_rate", 1e-300));
        assertEquals(200, a.status(), a.toString());
        for (Map<String, Object> row : a.<List<Map<String, Object>>>at("by_similarity")) {
            assertTrue(num(row.get("false_match_rate")) > 1e-300, row.toString());
        }
        assertEquals(0.8, num(a.at("similarity_recommendation.min_similarity")), 0);
        assertEquals("default", a.at("similarity_recommendation.chosen_by"));
        List<String> warnings = a.at("warnings");
        assertTrue(warnings.stream().anyMatch(w -> w.startsWith("no [min_similarity] from 0.5 to 0.95")), warnings.toString());
    }

    @Test
    void aFieldWithoutASketchGetsTheRadiusReportOnly() {
        rest.ok("PUT", "/calib-nosketch", """
            {"mappings": {"properties": {"body": {"type": "text", "fields": {"simhash": {"type": "simhash", "sketch": "none"}}}}}}""");
        StringBuilder bulk = new StringBuilder();
        int n = 0;
        for (Map<String, Object> t : texts().subList(0, 40)) {
            bulk.append(toJson(Map.of("index", Map.of("_id", "d" + n++)))).append('\n').append(toJson(Map.of("body", t.get("body"))))
                .append('\n');
        }
        Rest.Answer b = rest.bulk("/calib-nosketch/_bulk?refresh=true", bulk.toString());
        assertEquals(Boolean.FALSE, b.at("errors"), b.toString());
        Rest.Answer a = calibrate("calib-nosketch", ordered("field", "body.simhash"));
        assertEquals(200, a.status(), a.toString());
        assertTrue(a.json().containsKey("sketch") && a.<Object>at("sketch") == null, "no sketch: " + a);
        Map<String, Object> report = a.json();
        assertTrue(!report.containsKey("by_similarity") && !report.containsKey("similarity_recommendation"), report.keySet().toString());
        assertNotNull(a.at("recommendation.max_distance"));
        for (Map<String, Object> e : a.<List<Map<String, Object>>>at("edits")) {
            assertTrue(!e.containsKey("median_similarity") && !e.containsKey("copies_without_sketch"), e.toString());
        }
        // beside an index with one, the report covers radii only and says why
        Rest.Answer mixed = calibrate(INDEX + ",calib-nosketch", ordered("field", "body.simhash", "sample_size", 50));
        assertEquals(200, mixed.status(), mixed.toString());
        assertTrue(mixed.<Object>at("sketch") == null, mixed.toString());
        assertTrue(!mixed.json().containsKey("by_similarity"), mixed.toString());
        List<String> warnings = mixed.at("warnings");
        assertTrue(warnings.stream().anyMatch(w -> w.startsWith("some target indices store a similarity sketch")), warnings.toString());
    }

    @Test
    void aLooserTargetIsCheckedOnObservedPairs() {
        Rest.Answer a = calibrate(INDEX, ordered("field", "body.simhash", "sample_size", 2000, "max_false_match_rate", 0.01));
        assertEquals(200, a.status(), a.toString());
        int k = ((Number) a.at("recommendation.max_distance")).intValue();
        List<Map<String, Object>> byK = a.at("by_k");
        assertTrue(num(byK.get(k).get("observed_false_match_rate")) <= 0.01, byK.get(k).toString());
        if (k < 16) {
            assertTrue(num(byK.get(k + 1).get("false_match_rate")) > 0.01, byK.get(k + 1).toString());
        }
        Rest.Answer strict = calibrate(INDEX, ordered("field", "body.simhash", "sample_size", 2000));
        assertTrue(k >= ((Number) strict.at("recommendation.max_distance")).intValue(), "a looser target allows a larger radius");
    }

    @Test
    void sameSeedSameReportOtherSeedOtherCopies() {
        Rest.Answer a = calibrate(INDEX, ordered("field", "body.simhash", "seed", 42, "sample_size", 2000));
        Rest.Answer b = rest.get("/" + INDEX + "/_simhash/calibrate?field=body.simhash&seed=42&sample_size=2000");
        Rest.Answer c = calibrate(INDEX, ordered("field", "body.simhash", "seed", 43, "sample_size", 2000));
        assertEquals(200, b.status(), b.toString());
        assertEquals(a.<Object>at("by_k"), b.at("by_k"));
        assertEquals(a.<Object>at("edits"), b.at("edits"));
        assertEquals(a.<Object>at("random_pairs"), c.at("random_pairs"), "the whole index either way");
        assertNotEquals(a.<Object>at("edits"), c.at("edits"), "other edits");
    }

    @Test
    void aSmallerSample() {
        Rest.Answer a = rest.get("/" + INDEX + "/_simhash/calibrate?field=body.simhash&sample_size=100&seed=7");
        assertEquals(200, a.status(), a.toString());
        assertEquals(100, ((Number) a.at("sample.sampled")).intValue());
        int n = 100 - ((Number) a.at("sample.sampled_without_fingerprint")).intValue();
        assertEquals((long) n * (n - 1) / 2, ((Number) a.at("random_pairs.pairs")).longValue());
        // 4950 pairs can show rates down to 2e-4 only: the 1e-6 target is met by estimate, and the report says so
        assertEquals("estimate", a.at("recommendation.false_match_rate_from"));
        List<String> warnings = a.at("warnings");
        assertTrue(warnings.stream().anyMatch(w -> w.contains("raise [sample_size]")), warnings.toString());
        Rest.Answer again = rest.get("/" + INDEX + "/_simhash/calibrate?field=body.simhash&sample_size=100&seed=7");
        assertEquals(a.<Object>at("random_pairs"), again.at("random_pairs"), "the same seed samples the same documents");
    }

    @Test
    void copyToTargets() {
        Rest.Answer missing = calibrate(INDEX, ordered("field", "all_fp"));
        assertEquals(400, missing.status(), missing.toString());
        assertTrue(missing.body().contains("[source_field] is required"), missing.toString());
        assertTrue(missing.body().contains("copy_to target of [body, title]") || missing.body().contains("copy_to target of [title, body]"),
            missing.toString());

        Rest.Answer named = calibrate(INDEX, ordered("field", "all_fp", "source_field", "body", "sample_size", 2000));
        assertEquals(200, named.status(), named.toString());
        assertEquals("body", named.at("source_field"));
        // all_fp holds title + body: its stored fingerprints differ from those of the body alone, and the report says so
        assertTrue(((Number) named.at("sample.stored_fingerprint_differs")).intValue() > docs / 2, named.toString());
        List<String> warnings = named.at("warnings");
        assertTrue(warnings.stream().anyMatch(w -> w.contains("differs from the fingerprint of [body] alone")), warnings.toString());

        // one source: found by itself; titles are short, and the report says what that means
        Rest.Answer titles = calibrate(INDEX, ordered("field", "title_fp", "sample_size", 2000));
        assertEquals(200, titles.status(), titles.toString());
        assertEquals("title", titles.at("source_field"));
        assertEquals(0, ((Number) titles.at("sample.stored_fingerprint_differs")).intValue(), titles.toString());
        assertTrue(num(titles.at("sample.median_features")) < 20, titles.toString());
        List<String> titleWarnings = titles.at("warnings");
        assertTrue(titleWarnings.stream().anyMatch(w -> w.startsWith("short texts:") && w.contains("[term] query")), titleWarnings.toString());
    }

    @Test
    void badRequests() {
        assertError(rest.get("/" + INDEX + "/_simhash/calibrate"), 400, "[field] is required");
        assertError(rest.post("/" + INDEX + "/_simhash/calibrate", "{}"), 400, "[field] is required");
        assertError(rest.get("/" + INDEX + "/_simhash/calibrate?field=body.simhash&sample_size=1"), 400,
            "[sample_size] must be between 2 and 10000, got [1]");
        assertError(rest.get("/" + INDEX + "/_simhash/calibrate?field=body.simhash&sample_size=10001"), 400, "[sample_size]");
        assertError(rest.get("/" + INDEX + "/_simhash/calibrate?field=body.simhash&sample_size=many"), 400,
            "[sample_size] must be an integer, got [many]");
        assertError(rest.get("/" + INDEX + "/_simhash/calibrate?field=body.simhash&seed=x"), 400, "[seed] must be an integer");
        assertError(rest.get("/" + INDEX + "/_simhash/calibrate?field=body.simhash&max_false_match_rate=2"), 400,
            "[max_false_match_rate] must be a number greater than 0 and less than 1, got [2.0]");
        assertError(rest.get("/" + INDEX + "/_simhash/calibrate?field=body.simhash&max_false_match_rate=0"), 400,
            "[max_false_match_rate]");
        assertError(rest.get("/" + INDEX + "/_simhash/calibrate?field=body.simhash&bogus=1"), 400, "bogus");
        assertError(calibrate(INDEX, ordered("field", "body.simhash", "sample_size", 0)), 400, "[sample_size] must be between 2 and 10000");
        assertError(calibrate(INDEX, ordered("field", "body.simhash", "bogus", 1)), 400, "bogus");
        assertError(calibrate(INDEX, ordered("field", "body.simhash", "max_false_match_rate", "often")), 400, "max_false_match_rate");
        assertError(calibrate("calib-nope", ordered("field", "body.simhash")), 404, "calib-nope");
        assertError(calibrate(INDEX, ordered("field", "body")), 400, "[field] [body] is a [text] field");
        assertError(calibrate(INDEX, ordered("field", "nope")), 400, "[field] [nope] is not mapped");
        assertError(calibrate("calib-object", ordered("field", "simhash")), 400, "is the object form of the simhash processor");
        assertError(calibrate("calib-ready", ordered("field", "fp")), 400, "takes ready-made fingerprints ([input] = [fingerprint])");
        assertError(calibrate(INDEX, ordered("field", "title_fp", "source_field", "nope")), 400, "[source_field] [nope] is not mapped");
    }

    /**
     * A simplified and a traditional Chinese copy of one text are one text to a simhash-v2 field (it folds traditional
     * to simplified characters: identical fingerprints, sketch estimate 1.0), so calibrate must judge them related, a
     * near-duplicate already in the data, not a chance match: the pair at distance 0 is related, and the recommendation
     * stands.
     */
    @Test
    void simplifiedAndTraditionalCopiesOfOneTextAreRelated() {
        String index = "calib-zh-variants";
        rest.ok("PUT", "/" + index, """
            {"settings": {"number_of_shards": 1, "number_of_replicas": 0},
             "mappings": {"properties": {"body": {"type": "text", "fields": {"simhash": {"type": "simhash", "version": "v2"}}}}}}""");
        StringBuilder bulk = new StringBuilder();
        String simplified = "国家统计局今天发布数据显示，十月份全国居民消费价格同比上涨，其中城市上涨较多，农村上涨较少，"
            + "食品价格继续下降，服务价格保持稳定。专家认为，经济运行总体平稳，发展质量继续提高。";
        String traditional = "國家統計局今天發布數據顯示，十月份全國居民消費價格同比上漲，其中城市上漲較多，農村上漲較少，"
            + "食品價格繼續下降，服務價格保持穩定。專家認為，經濟運行總體平穩，發展質量繼續提高。";
        bulk.append(toJson(Map.of("index", Map.of("_id", "zh-s")))).append('\n').append(toJson(Map.of("body", simplified))).append('\n');
        bulk.append(toJson(Map.of("index", Map.of("_id", "zh-t")))).append('\n').append(toJson(Map.of("body", traditional))).append('\n');
        int n = 0;
        for (Map<String, Object> t : texts().subList(0, 60)) {
            bulk.append(toJson(Map.of("index", Map.of("_id", "d" + n++)))).append('\n').append(toJson(Map.of("body", t.get("body"))))
                .append('\n');
        }
        Rest.Answer b = rest.bulk("/" + index + "/_bulk?refresh=true", bulk.toString());
        assertEquals(Boolean.FALSE, b.at("errors"), b.toString());
        // the premise: one text to the field
        Rest.Answer fps = rest.ok("POST", "/" + index + "/_search", toJson(Map.of("query", Map.of("ids", Map.of("values",
            List.of("zh-s", "zh-t"))), "_source", false, "docvalue_fields", List.of(Map.of("field", "body.simhash", "format", "long")))));
        List<Map<String, Object>> hits = fps.at("hits.hits");
        assertEquals(2, hits.size());
        assertEquals(((Map<?, ?>) hits.get(0).get("fields")).get("body.simhash"), ((Map<?, ?>) hits.get(1).get("fields")).get("body.simhash"));

        Rest.Answer a = calibrate(index, ordered("field", "body.simhash", "sample_size", 1000));
        assertEquals(200, a.status(), a.toString());
        List<Map<String, Object>> byK = a.at("by_k");
        long atZero = ((Number) byK.get(0).get("random_pairs_within")).longValue();
        assertTrue(atZero >= 1, byK.get(0).toString());
        assertEquals(atZero, ((Number) byK.get(0).get("related_pairs_within")).longValue(), "every pair at distance 0 is related: " + byK.get(0));
        assertEquals(0.0, num(byK.get(0).get("observed_false_match_rate")), 0, byK.get(0).toString());
        assertNotNull(a.at("recommendation.max_distance"), a.toString());
        List<String> warnings = a.at("warnings");
        assertTrue(warnings.stream().noneMatch(w -> w.startsWith("even identical fingerprints")), warnings.toString());
        rest.delete("/" + index);
    }

    /** Two documents are one pair: no rate can be shown or estimated from it, and the report says so instead of recommending. */
    @Test
    void twoDocumentsGiveAWarningAndNoRecommendation() {
        String index = "calib-two";
        rest.ok("PUT", "/" + index, """
            {"mappings": {"properties": {"body": {"type": "text", "fields": {"simhash": {"type": "simhash"}}}}}}""");
        StringBuilder bulk = new StringBuilder();
        int n = 0;
        for (Map<String, Object> t : texts().subList(0, 2)) {
            bulk.append(toJson(Map.of("index", Map.of("_id", "d" + n++)))).append('\n').append(toJson(Map.of("body", t.get("body"))))
                .append('\n');
        }
        Rest.Answer b = rest.bulk("/" + index + "/_bulk?refresh=true", bulk.toString());
        assertEquals(Boolean.FALSE, b.at("errors"), b.toString());
        for (String sample : new String[] { "2", "1000" }) {
            Rest.Answer a = rest.get("/" + index + "/_simhash/calibrate?field=body.simhash&sample_size=" + sample);
            assertEquals(200, a.status(), a.toString());
            assertEquals(1, ((Number) a.at("random_pairs.pairs")).intValue(), a.toString());
            assertTrue(a.json().containsKey("recommendation"), a.toString());
            assertNull(a.at("recommendation.max_distance"), a.toString());
            assertNull(a.at("similarity_recommendation.min_similarity"), a.toString());
            assertEquals("too_few_documents", a.at("similarity_recommendation.chosen_by"), a.toString());
            List<String> warnings = a.at("warnings");
            assertTrue(warnings.stream().anyMatch(w -> w.startsWith("too few documents: 2 sampled documents have a fingerprint, 1 pairs")),
                warnings.toString());
        }
        rest.delete("/" + index);
    }

    static void assertError(Rest.Answer a, int status, String message) {
        assertEquals(status, a.status(), a.toString());
        assertNotNull(a.body());
        assertTrue(a.body().contains(message), "expected [" + message + "] in " + a);
    }
}
