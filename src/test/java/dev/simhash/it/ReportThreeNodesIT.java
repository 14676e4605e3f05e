package dev.simhash.it;

import dev.simhash.it.support.EsCluster;
import dev.simhash.it.support.RealNodes;
import dev.simhash.it.support.Rest;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static dev.simhash.it.support.Rest.toJson;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The report and the fold at the default threshold on a 3-node cluster: the corpus of {@link VerifiedCorpus} in an index of
 * 4 shards with a replica each, spread over the nodes, and in an index of one shard held by node 0 alone. Every request
 * goes to node 1. The report's groups (members, ids, representatives and group ids) are the same on both indices and equal
 * the client-side brute force of the verified rule; the fold is the same on both. After node 2 is killed (its copies
 * gone, replicas promoted), the report over the 4 shards still answers, with the same groups, as a search does.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ReportThreeNodesIT {

    static final String SPREAD = "three-spread";
    static final String ONE = "three-one";
    static final String MAPPING = """
        {"settings": {"number_of_shards": %d, "number_of_replicas": %d%s},
         "mappings": {"properties": {"rank": {"type": "integer"},
           "body": {"type": "text", "fields": {"simhash": {"type": "simhash"}}}}}}""";

    private final VerifiedCorpus corpus = new VerifiedCorpus(20261129);
    private EsCluster cluster;
    private Rest rest;

    @BeforeAll
    void start() throws Exception {
        cluster = EsCluster.builder(RealNodes.distribution(), RealNodes.workDir().resolve("report-three")).name("report-three").nodes(3)
            .build().start();
        rest = cluster.rest(1);
        rest.ok("PUT", "/" + SPREAD, MAPPING.formatted(4, 1, ""));
        rest.ok("PUT", "/" + ONE, MAPPING.formatted(1, 0, ", \"index.routing.allocation.require._name\": \"" + cluster.nodeName(0) + "\""));
        for (String index : List.of(SPREAD, ONE)) {
            Rest.Answer a = rest.bulk("/" + index + "/_bulk?refresh=true", corpus.bulk());
            assertEquals(Boolean.FALSE, a.at("errors"), a.body());
        }
        rest.ok("GET", "/_cluster/health/" + SPREAD + "," + ONE + "?wait_for_status=green&timeout=120s", null);
        Rest.Answer shards = rest.ok("GET", "/_cat/shards/" + SPREAD + "?format=json&h=node", null);
        for (int i = 0; i < 3; i++) {
            assertTrue(shards.body().contains("\"" + cluster.nodeName(i) + "\""), "the premise: every node holds copies: " + shards.body());
        }
    }

    @AfterAll
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private Rest.Answer report(String index) {
        Rest.Answer a = rest.post("/" + index + "/_simhash/duplicates", toJson(Map.of("field", "body.simhash", "size", 1000,
            "max_members", 1000)));
        assertEquals(200, a.status(), a.toString());
        assertEquals("bands", a.at("candidates"), a.toString());
        return a;
    }

    /** The groups without the index names: group ids, sizes, representatives and members with their similarity. */
    @SuppressWarnings("unchecked")
    private static List<Object> groupsWithoutIndex(Rest.Answer a) {
        List<Map<String, Object>> groups = a.at("groups");
        for (Map<String, Object> g : groups) {
            ((Map<String, Object>) g.get("representative")).remove("_index");
            for (Map<String, Object> m : (List<Map<String, Object>>) g.get("members")) {
                m.remove("_index");
            }
        }
        return List.copyOf(groups);
    }

    @Test
    @SuppressWarnings("unchecked")
    void theReportOverThreeNodesEqualsTheReportOnOneAndTheBruteForce() throws Exception {
        Set<Set<String>> expected = corpus.clientGroups(0.8);
        assertFalse(expected.isEmpty());
        Rest.Answer spread = report(SPREAD);
        Rest.Answer one = report(ONE);
        assertEquals(expected, corpus.reportGroups(spread));
        assertEquals(groupsWithoutIndex(one), groupsWithoutIndex(spread), "the same groups, ids and representatives");

        // a page of the report over one shard (that shard keeps the page's groups and counts them all) is a slice of the
        // whole report over several shards (paged on the node that runs it), with the first members of each group
        List<Object> all = groupsWithoutIndex(spread);
        for (int from : new int[] { 0, 3, 6, Math.max(0, all.size() - 2), all.size() + 1 }) {
            Rest.Answer page = rest.post("/" + ONE + "/_simhash/duplicates", toJson(Map.of("field", "body.simhash", "from", from, "size", 3,
                "max_members", 2)));
            assertEquals(200, page.status(), page.toString());
            for (String total : List.of("total_docs", "groups_total", "duplicates_total")) {
                assertEquals((Object) spread.at(total), page.at(total), total);
            }
            List<Object> expectedPage = new ArrayList<>();
            for (Object g : all.subList(Math.min(from, all.size()), Math.min(from + 3, all.size()))) {
                Map<String, Object> group = new LinkedHashMap<>((Map<String, Object>) g);
                List<?> members = (List<?>) group.get("members");
                group.put("members", members.subList(0, Math.min(2, members.size())));
                expectedPage.add(group);
            }
            assertEquals(expectedPage, groupsWithoutIndex(page), "from " + from);
        }

        // a node with copies of the spread index dies: its primaries' replicas are promoted and the report answers as before
        cluster.killNode(2);
        rest.ok("GET", "/_cluster/health/" + SPREAD + "?wait_for_nodes=2&wait_for_status=yellow&wait_for_no_initializing_shards=true"
            + "&timeout=120s", null);
        Rest.Answer after = report(SPREAD);
        assertEquals(expected, corpus.reportGroups(after));
        assertEquals(groupsWithoutIndex(one), groupsWithoutIndex(after));
    }

    @Test
    void theFoldOverThreeNodesEqualsTheFoldOnOne() {
        String body = toJson(Map.of("size", 1000, "sort", List.of(Map.of("rank", "asc")), "_source", false));
        Rest.Answer spread = rest.post("/" + SPREAD + "/_simhash/fold?field=body.simhash&window=1000&members=100", body);
        Rest.Answer one = rest.post("/" + ONE + "/_simhash/fold?field=body.simhash&window=1000&members=100", body);
        assertEquals(200, spread.status(), spread.toString());
        assertEquals("bands", spread.at("simhash_fold.candidates"), spread.toString());
        List<Map<String, Object>> a = spread.at("hits.hits");
        List<Map<String, Object>> b = one.at("hits.hits");
        assertEquals(b.size(), a.size());
        assertTrue(a.size() < corpus.ids.size(), "something folds");
        for (int i = 0; i < a.size(); i++) {
            assertEquals(b.get(i).get("_id"), a.get(i).get("_id"));
            assertEquals(b.get(i).get("_simhash").toString().replace(ONE, SPREAD), a.get(i).get("_simhash").toString());
        }
    }
}
