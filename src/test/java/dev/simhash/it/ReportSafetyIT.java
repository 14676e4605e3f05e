package dev.simhash.it;

import dev.simhash.core.SimHash;
import dev.simhash.it.CollapseCorpus.Doc;
import dev.simhash.it.DuplicatesIT.Group;
import dev.simhash.it.support.EsCluster;
import dev.simhash.it.support.RealNodes;
import dev.simhash.it.support.Rest;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static dev.simhash.it.support.Rest.ordered;
import static dev.simhash.it.support.Rest.toJson;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Fold and report where they must stay correct and safe, on their own secured single node: indices holding fingerprints
 * of different versions, the report's memory charged to the request circuit breaker, its point in time kept alive
 * through a long grouping, and writing group ids only where the caller may write and where no user data is overwritten.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Tag("smoke")
class ReportSafetyIT {

    static final String PASSWORD = "simhash-secret-1";

    private EsCluster cluster;
    private Rest admin;
    private final CollapseCorpus mixed = CollapseCorpus.planted(909, 800, 20, 5);

    @BeforeAll
    void start() throws Exception {
        cluster = EsCluster.builder(RealNodes.distribution(), RealNodes.workDir().resolve("report-safety")).name("report-safety")
            .security("admin", PASSWORD)
            .role("""
                public_writer:
                  indices:
                    - names: ['rs-public*', 'rs-secret*']
                      privileges: ['read']
                    - names: ['rs-public*']
                      privileges: ['write']
                """)
            .user("pubwriter", PASSWORD, "public_writer")
            // expired points in time are released within 200 ms instead of up to a minute: a report that failed to keep
            // its point in time alive fails at once
            .setting("search.keep_alive_interval", "200ms")
            .build().start();
        admin = cluster.rest();
        loadMixed();
    }

    @AfterAll
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    // ---- fingerprints of different versions ----

    /** Even documents into a simhash-v1 index, odd ones into a simhash-v2 index: groups span both. */
    private void loadMixed() {
        for (String[] index : new String[][] { { "rs-mixa", "v1" }, { "rs-mixb", "v2" } }) {
            admin.ok("PUT", "/" + index[0], """
                {"settings": {"number_of_shards": 2, "number_of_replicas": 0},
                 "mappings": {"properties": {"rank": {"type": "integer"},
                   "fp": {"type": "simhash", "input": "fingerprint", "version": "%s"}}}}""".formatted(index[1]));
        }
        StringBuilder ndjson = new StringBuilder();
        for (int i = 0; i < mixed.docs.size(); i++) {
            Doc d = mixed.docs.get(i);
            Map<String, Object> source = new LinkedHashMap<>();
            source.put("rank", d.rank());
            if (d.hash() != null) {
                source.put("fp", SimHash.toHex(d.hash()));
            }
            ndjson.append(toJson(Map.of("index", Map.of("_index", i % 2 == 0 ? "rs-mixa" : "rs-mixb", "_id", d.id())))).append('\n')
                .append(toJson(source)).append('\n');
        }
        Rest.Answer bulk = admin.bulk("/_bulk?refresh=true", ndjson.toString());
        assertEquals(Boolean.FALSE, bulk.at("errors"), bulk.toString());
    }

    private Map<String, List<Doc>> mixedByIndex() {
        Map<String, List<Doc>> out = new LinkedHashMap<>();
        for (int i = 0; i < mixed.docs.size(); i++) {
            out.computeIfAbsent(i % 2 == 0 ? "rs-mixa" : "rs-mixb", k -> new ArrayList<>()).add(mixed.docs.get(i));
        }
        return out;
    }

    @Test
    void foldAndReportOverIndicesOfMixedVersionsTakeAGivenMaxDistance() {
        // the report equals brute-force components over both indices
        Rest.Answer report = admin.post("/rs-mixa,rs-mixb/_simhash/duplicates", toJson(ordered("field", "fp", "max_distance", 6,
            "size", 1000, "max_members", 10000)));
        assertEquals(200, report.status(), report.toString());
        assertEquals(6, ((Number) report.at("max_distance")).intValue());
        List<Group> expected = DuplicatesIT.expected(mixedByIndex(), 6);
        assertTrue(expected.size() > 5, "the planted groups must show: " + expected.size());
        DuplicatesIT.assertSameGroups(expected, DuplicatesIT.groups(report), "mixed versions");

        // the fold equals greedy folding of the same ranked hits
        Map<String, Object> search = ordered("query", Map.of("match_all", Map.of()), "sort", List.of(Map.of("rank", "asc")), "size", 300);
        Rest.Answer fold = admin.post("/rs-mixa,rs-mixb/_simhash/fold?field=fp&max_distance=6&window=300", toJson(search));
        assertEquals(200, fold.status(), fold.toString());
        assertEquals(6, ((Number) fold.at("simhash_fold.max_distance")).intValue());
        Map<String, Object> plain = new LinkedHashMap<>(search);
        plain.put("docvalue_fields", List.of(Map.of("field", "fp", "format", "long")));
        plain.put("_source", false);
        List<Map<String, Object>> hits = admin.ok("POST", "/rs-mixa,rs-mixb/_search", toJson(plain)).at("hits.hits");
        List<Map.Entry<String, Long>> ranked = new ArrayList<>();
        for (Map<String, Object> h : hits) {
            @SuppressWarnings("unchecked")
            Map<String, List<Object>> fields = (Map<String, List<Object>>) h.get("fields");
            Long hash = fields == null || fields.get("fp") == null ? null : ((Number) fields.get("fp").get(0)).longValue();
            ranked.add(new AbstractMap.SimpleImmutableEntry<>((String) h.get("_id"), hash));
        }
        List<FoldIT.Folded> greedy = FoldIT.greedy(ranked, 6, 0);
        assertEquals(greedy.size(), ((Number) fold.at("simhash_fold.groups")).intValue(), fold.toString());
        assertEquals(greedy, FoldIT.folded(fold));

        // without max_distance the versions' defaults differ: a clear 400 naming the parameter
        Rest.Answer noRadius = admin.post("/rs-mixa,rs-mixb/_simhash/duplicates", toJson(Map.of("field", "fp")));
        assertEquals(400, noRadius.status(), noRadius.toString());
        assertTrue(noRadius.body().contains("[max_distance] is required"), noRadius.toString());
        Rest.Answer noRadiusFold = admin.post("/rs-mixa,rs-mixb/_simhash/fold?field=fp", toJson(search));
        assertEquals(400, noRadiusFold.status(), noRadiusFold.toString());
        assertTrue(noRadiusFold.body().contains("[max_distance] is required"), noRadiusFold.toString());
        // over all indices, once any index has a v1 field of that name
        Rest.Answer all = admin.post("/_simhash/fold?field=fp&max_distance=6&window=300", toJson(search));
        assertEquals(200, all.status(), all.toString());
    }

    // ---- memory charged to the request circuit breaker ----

    private long requestBreakerBytes() {
        Map<String, Object> nodes = admin.ok("GET", "/_nodes/stats/breaker", null).at("nodes");
        @SuppressWarnings("unchecked")
        Map<String, Object> node = (Map<String, Object>) nodes.values().iterator().next();
        return ((Number) new Rest.Answer(200, toJson(node)).at("breakers.request.estimated_size_in_bytes")).longValue();
    }

    /** The request breaker back at {@code baseline}: at once, or after the point in time's asynchronous release. */
    private void assertBreakerAt(long baseline, String what) throws InterruptedException {
        long now = requestBreakerBytes();
        for (int i = 0; i < 50 && now != baseline; i++) {
            Thread.sleep(100);
            now = requestBreakerBytes();
        }
        assertEquals(baseline, now, what);
    }

    private long countWithField(String index, String field) {
        admin.ok("POST", "/" + index + "/_refresh", null);
        return ((Number) admin.ok("POST", "/" + index + "/_count", toJson(Map.of("query", Map.of("exists", Map.of("field", field)))))
            .at("count")).longValue();
    }

    private void requestBreakerLimit(String limit) {
        admin.ok("PUT", "/_cluster/settings", "{\"persistent\": {\"indices.breaker.request.limit\": "
            + (limit == null ? "null" : "\"" + limit + "\"") + "}}");
    }

    @Test
    void aReportThatDoesNotFitTheRequestBreakerAnswers429WritesNothingAndGivesEverythingBack() throws Exception {
        CollapseCorpus corpus = CollapseCorpus.planted(910, 10_000, 100, 4);
        corpus.load(admin, "rs-breaker", 2, null);
        // searches charge the request breaker too, for the hits they fetch: small pages keep that well below the limit
        admin.ok("PUT", "/rs-breaker/_settings", "{\"index.max_result_window\": 100}");
        long fingerprinted = corpus.docs.stream().filter(d -> d.hash() != null).count();
        long baseline = requestBreakerBytes();

        // reading 10,000 documents with their ids charges about 0.6 MB, the searches' pages as much; grouping then adds
        // about 1.9 MB (56 bytes per document and two threads' bucket tables)
        requestBreakerLimit("1600kb");
        try {
            Rest.Answer tooBig = admin.post("/rs-breaker/_simhash/duplicates", toJson(Map.of("field", "simhash", "max_distance", 4,
                "write_group_id", "dup_group")));
            assertEquals(429, tooBig.status(), tooBig.toString());
            assertTrue(tooBig.body().contains("circuit_breaking_exception"), tooBig.toString());
            assertEquals(0, countWithField("rs-breaker", "dup_group"), "a report over the limit writes nothing");
            assertBreakerAt(baseline, "a failed report gives back all it charged");
        } finally {
            requestBreakerLimit(null);
        }

        // what a report that fits charges: at least its fingerprints (8 bytes per document) and the grouping's peak (52 to 56 per
        // document with two grouping threads, this node has two processors), as the README states
        Rest.Answer fits = admin.post("/rs-breaker/_simhash/duplicates", toJson(Map.of("field", "simhash", "max_distance", 4)));
        assertEquals(200, fits.status(), fits.toString());
        long peak = ((Number) fits.at("peak_memory_bytes")).longValue();
        assertTrue(peak >= (8 + 52) * fingerprinted, "peak " + peak + " for " + fingerprinted + " documents");
        // plus the bucket tables (2 x 2 x 256 KB), the radix counts and the listed members
        assertTrue(peak <= (8 + 12 + 56 + 32) * fingerprinted + 2 * 1024 * 1024, "peak " + peak);
        assertTrue(peak > 1600 * 1024, "the limit above was below what the report needs: " + peak);
        assertBreakerAt(baseline, "a finished report gives back all it charged");

        Rest.Answer written = admin.post("/rs-breaker/_simhash/duplicates", toJson(Map.of("field", "simhash", "max_distance", 4,
            "write_group_id", "dup_group")));
        assertEquals(200, written.status(), written.toString());
        assertEquals(fingerprinted, countWithField("rs-breaker", "dup_group"));
        assertBreakerAt(baseline, "a report that wrote gives back all it charged");
    }

    // ---- write_group_id: privileges, targets, user data, progress ----

    private Rest.Answer writeReport(Rest as, String indices, String field, boolean overwrite) {
        Map<String, Object> body = new LinkedHashMap<>(ordered("field", "simhash", "max_distance", 4, "write_group_id", field));
        if (overwrite) {
            body.put("overwrite_group_id", true);
        }
        return as.post("/" + indices + "/_simhash/duplicates", toJson(body));
    }

    @Test
    void aUserWhoMayNotWriteEveryTargetIndexIsRefusedBeforeAnythingIsWritten() {
        CollapseCorpus corpus = CollapseCorpus.planted(911, 1500, 30, 4);
        corpus.load(admin, "rs-public", 1, null);
        // the same fingerprints in the secret index: every public document is in a group with a secret one
        corpus.load(admin, "rs-secret", 1, null);
        Rest pubwriter = cluster.restAs("pubwriter");
        Rest.Answer both = writeReport(pubwriter, "rs-public,rs-secret", "dup_group", false);
        assertEquals(403, both.status(), both.toString());
        assertTrue(both.body().contains("security_exception") && both.body().contains("rs-secret"), both.toString());
        assertEquals(0, countWithField("rs-public", "dup_group"), "nothing written through the index the user may write");
        assertEquals(0, countWithField("rs-secret", "dup_group"));
        // the index the user may write alone: written
        Rest.Answer own = writeReport(pubwriter, "rs-public", "dup_group", false);
        assertEquals(200, own.status(), own.toString());
        long fingerprinted = corpus.docs.stream().filter(d -> d.hash() != null).count();
        assertEquals(fingerprinted, ((Number) own.at("write_group_id.updated")).longValue());
        assertEquals(fingerprinted, countWithField("rs-public", "dup_group"));
    }

    @Test
    void writeGroupIdOnlyWritesAKeywordFieldOfItsOwnAndNeverOverwritesUserData() {
        CollapseCorpus corpus = CollapseCorpus.planted(912, 600, 15, 4);
        corpus.load(admin, "rs-targets", 1, null);
        admin.ok("PUT", "/rs-targets/_mapping", """
            {"properties": {"title": {"type": "text", "fields": {"raw": {"type": "keyword"}}},
              "grp_alias": {"type": "alias", "path": "dup_group"}},
             "runtime": {"grp_runtime": {"type": "keyword"}}}""");
        for (String[] target : new String[][] { { "title.raw", "multi-field" }, { "grp_alias", "field alias" },
            { "grp_runtime", "runtime field" } }) {
            Rest.Answer a = writeReport(admin, "rs-targets", target[0], false);
            assertEquals(400, a.status(), a.toString());
            assertTrue(a.body().contains("[write_group_id] field [" + target[0] + "]") && a.body().contains(target[1]), a.toString());
        }
        assertEquals(0, countWithField("rs-targets", "dup_group"));
        assertEquals(0, countWithField("rs-targets", "title"));

        // a value that is not a group id is user data: refused, nothing written, unless overwrite_group_id is set
        String victim = corpus.docs.stream().filter(d -> d.hash() != null).findFirst().orElseThrow().id();
        admin.ok("POST", "/rs-targets/_update/" + victim + "?refresh=true", "{\"doc\": {\"dup_group\": \"customer-42\"}}");
        Rest.Answer refused = writeReport(admin, "rs-targets", "dup_group", false);
        assertEquals(400, refused.status(), refused.toString());
        assertTrue(refused.body().contains("[write_group_id] [1] of the report's documents hold values in [dup_group] that are not group "
            + "ids") && refused.body().contains("[overwrite_group_id]"), refused.toString());
        assertEquals(1, countWithField("rs-targets", "dup_group"), "nothing written");
        Rest.Answer overwrite = writeReport(admin, "rs-targets", "dup_group", true);
        assertEquals(200, overwrite.status(), overwrite.toString());
        long fingerprinted = corpus.docs.stream().filter(d -> d.hash() != null).count();
        assertEquals(fingerprinted, ((Number) overwrite.at("write_group_id.updated")).longValue());
        Map<String, Object> doc = admin.ok("GET", "/rs-targets/_doc/" + victim, null).at("_source");
        assertTrue(((String) doc.get("dup_group")).matches("[0-9a-f]{16}"), doc.toString());
        // its own group ids are no user data: a second run needs no overwrite_group_id and writes nothing new
        admin.ok("POST", "/rs-targets/_refresh", null);
        Rest.Answer again = writeReport(admin, "rs-targets", "dup_group", false);
        assertEquals(200, again.status(), again.toString());
        assertEquals(0, ((Number) again.at("write_group_id.updated")).longValue());
    }

    @Test
    void aWriteThatFailsPartWaySaysHowFarItGotAndARerunCompletesIt() {
        // documents that carry an unmapped field (ignored with dynamic: false) cannot be updated once the mapping is strict
        CollapseCorpus corpus = CollapseCorpus.planted(913, 2500, 40, 4);
        admin.ok("PUT", "/rs-partial", """
            {"settings": {"number_of_shards": 1, "number_of_replicas": 0},
             "mappings": {"dynamic": false, "properties": {"rank": {"type": "integer"}, "dup_group": {"type": "keyword"},
               "simhash": %s}}}""".formatted(dev.simhash.it.support.Fixtures.FP_MAPPING));
        StringBuilder ndjson = new StringBuilder();
        for (Doc d : corpus.docs) {
            Map<String, Object> source = new LinkedHashMap<>();
            source.put("rank", d.rank());
            if (d.hash() != null) {
                source.put("simhash", dev.simhash.it.support.Fixtures.storedForm(d.hash()));
            }
            if (d.rank() % 7 == 0) {
                source.put("note", "unmapped");
            }
            ndjson.append(toJson(Map.of("index", Map.of("_id", d.id())))).append('\n').append(toJson(source)).append('\n');
        }
        Rest.Answer bulk = admin.bulk("/rs-partial/_bulk?refresh=true", ndjson.toString());
        assertEquals(Boolean.FALSE, bulk.at("errors"), bulk.toString());
        admin.ok("PUT", "/rs-partial/_mapping", "{\"dynamic\": \"strict\"}");
        long fingerprinted = corpus.docs.stream().filter(d -> d.hash() != null).count();

        Rest.Answer failed = writeReport(admin, "rs-partial", "dup_group", false);
        assertEquals(400, failed.status(), failed.toString());
        long written = countWithField("rs-partial", "dup_group");
        assertTrue(written > 0 && written < fingerprinted, "written " + written + " of " + fingerprinted);
        assertTrue(failed.body().contains("wrote group ids to [" + written + "] of [" + fingerprinted + "] documents before failing: "
            + "rerun the report to complete"), failed.toString());
        assertTrue(failed.body().contains("strict_dynamic_mapping_exception"), failed.toString());

        admin.ok("PUT", "/rs-partial/_mapping", "{\"dynamic\": false}");
        Rest.Answer rerun = writeReport(admin, "rs-partial", "dup_group", false);
        assertEquals(200, rerun.status(), rerun.toString());
        assertEquals(fingerprinted - written, ((Number) rerun.at("write_group_id.updated")).longValue(), rerun.toString());
        assertEquals(fingerprinted, countWithField("rs-partial", "dup_group"));
    }

    // ---- the point in time outlives a long grouping ----

    private void keepAlive(String value) {
        admin.ok("PUT", "/_cluster/settings", "{\"persistent\": {\"simhash.duplicates.keep_alive\": "
            + (value == null ? "null" : "\"" + value + "\"") + "}}");
    }

    @Test
    void thePointInTimeIsRenewedWhileGroupingOutlastsItsKeepAlive() {
        // fingerprints that share their two high blocks land in one bucket of two block tables: grouping compares all pairs
        // there, which takes seconds, while the member fetch after it reads through the report's point in time
        admin.ok("PUT", "/rs-slow", """
            {"settings": {"number_of_shards": 2, "number_of_replicas": 0},
             "mappings": {"properties": {"fp": {"type": "simhash", "input": "fingerprint"}}}}""");
        java.util.Random random = new java.util.Random(914);
        long high = random.nextLong() & 0xFFFFFFFF00000000L;
        StringBuilder ndjson = new StringBuilder();
        long previous = high;
        // 130,000 of them: all pairs of one bucket take seconds even on a quiet machine; the time grows with the square of
        // the count, and 100,000 once took only 1.4 s in CI, too close to the margin below (130,000: 5.0 s on a quiet machine)
        for (int i = 0; i < 130_000; i++) {
            long h = i % 5 == 0 ? dev.simhash.it.support.Fixtures.flip(random, previous, 1 + random.nextInt(3)) | high
                : high | (random.nextLong() & 0xFFFFFFFFL);
            previous = h;
            ndjson.append("{\"index\": {}}\n{\"fp\": \"").append(SimHash.toHex(h)).append("\"}\n");
            if ((i + 1) % 10_000 == 0) {
                Rest.Answer bulk = admin.bulk("/rs-slow/_bulk", ndjson.toString());
                assertEquals(Boolean.FALSE, bulk.at("errors"), bulk.toString().substring(0, 300));
                ndjson.setLength(0);
            }
        }
        admin.ok("POST", "/rs-slow/_refresh", null);
        Map<String, Object> body = ordered("field", "fp", "max_distance", 3, "size", 50, "max_members", 1000);
        Rest.Answer reference = admin.post("/rs-slow/_simhash/duplicates", toJson(body));
        assertEquals(200, reference.status(), reference.toString());
        keepAlive("1s");
        try {
            Rest.Answer shortLived = admin.post("/rs-slow/_simhash/duplicates", toJson(body));
            assertEquals(200, shortLived.status(), shortLived.toString().substring(0, Math.min(2000, shortLived.toString().length())));
            long grouping = ((Number) shortLived.at("phases_ms.group")).longValue();
            // without renewal the point in time is gone 1.2 s after the last page (keep-alive + reaper interval): grouping that
            // takes longer, with a margin, proves the renewal
            assertTrue(grouping >= 1500, "grouping must outlast the keep-alive to prove anything, took " + grouping + " ms");
            assertTrue(((Number) shortLived.at("groups_total")).intValue() > 100, shortLived.toString().substring(0, 500));
            assertEquals(DuplicatesIT.groups(reference), DuplicatesIT.groups(shortLived));
            assertEquals((Object) reference.at("groups_total"), shortLived.at("groups_total"));
        } finally {
            keepAlive(null);
        }
    }
}
