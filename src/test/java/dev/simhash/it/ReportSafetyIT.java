package dev.simhash.it;

import dev.simhash.core.SimHash;
import dev.simhash.it.CollapseCorpus.Doc;
import dev.simhash.it.DuplicatesIT.Group;
import dev.simhash.it.support.EsCluster;
import dev.simhash.it.support.RealNodes;
import dev.simhash.it.support.Rest;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
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
        for (String[] index : new String[][] { { "rs-mixa", "simhash-v1" }, { "rs-mixb", "simhash-v2" } }) {
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
}
