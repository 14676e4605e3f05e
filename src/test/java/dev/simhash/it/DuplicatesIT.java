package dev.simhash.it;

import dev.simhash.core.SimHash;
import dev.simhash.it.CollapseCorpus.Doc;
import dev.simhash.it.support.Fixtures;
import dev.simhash.it.support.RealNodeExtension;
import dev.simhash.it.support.Rest;

import org.apache.http.entity.ContentType;
import org.apache.http.nio.entity.NStringEntity;
import org.apache.http.util.EntityUtils;
import org.elasticsearch.client.Request;
import org.elasticsearch.client.Response;
import org.elasticsearch.client.ResponseException;
import org.elasticsearch.client.ResponseListener;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static dev.simhash.it.support.Rest.ordered;
import static dev.simhash.it.support.Rest.toJson;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code _simhash/duplicates} on real indices: equal to brute-force connected components, independent
 * of shard count and routing, paging, filters, writing group ids for {@code collapse}, tasks, errors.
 */
@ExtendWith(RealNodeExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DuplicatesIT {

    private final Rest rest;
    private final CollapseCorpus corpus = CollapseCorpus.planted(707, 3000, 60, 5);

    DuplicatesIT(Rest rest) {
        this.rest = rest;
    }

    @BeforeAll
    void load() {
        rest.delete("/collapse-dup*");
        corpus.load(rest, "collapse-dup-3", 3, null);
        corpus.load(rest, "collapse-dup-1", 1, null);
        Random routing = new Random(5);
        Map<String, String> routes = new HashMap<>();
        corpus.docs.forEach(d -> routes.put(d.id(), "r" + routing.nextInt(50)));
        corpus.load(rest, "collapse-dup-routed", 4, d -> routes.get(d.id()));
    }

    @AfterAll
    void drop() {
        rest.delete("/collapse-dup*");
    }

    Rest.Answer report(String index, Map<String, Object> body) {
        return rest.post("/" + index + "/_simhash/duplicates", toJson(body));
    }


    /** A group as compared: id, size, members as "index/id". */
    record Group(String groupId, int size, List<String> members) {}

    /** The expected report, from brute-force components over (index, doc) pairs. */
    static List<Group> expected(Map<String, List<Doc>> docsByIndex, int r) {
        // documents of different indices are distinct even with equal ids: key them "index\0id"
        List<Doc> all = new ArrayList<>();
        docsByIndex.forEach((index, docs) -> docs.forEach(d -> all.add(new Doc(index + "\u0000" + d.id(), d.rank(), d.tag(), d.hash()))));
        Map<String, Integer> label = CollapseCorpus.components(all, r);
        Map<Integer, List<Doc>> members = new TreeMap<>();
        for (Doc d : all) {
            if (d.hash() != null) {
                members.computeIfAbsent(label.get(d.id()), k -> new ArrayList<>()).add(d);
            }
        }
        List<Group> out = new ArrayList<>();
        for (List<Doc> g : members.values()) {
            if (g.size() < 2) {
                continue;
            }
            long min = g.stream().map(Doc::hash).min(Long::compareUnsigned).orElseThrow();
            // members by _id, then _index
            List<String> names = g.stream().map(d -> d.id().split("\u0000"))
                .sorted(Comparator.comparing((String[] p) -> p[1]).thenComparing(p -> p[0]))
                .map(p -> p[0] + "/" + p[1]).toList();
            out.add(new Group(SimHash.toHex(min), g.size(), names));
        }
        out.sort(Comparator.comparingInt((Group g) -> -g.size()).thenComparing(Group::groupId));
        return out;
    }

    static List<Group> groups(Rest.Answer a) {
        List<Map<String, Object>> groups = a.at("groups");
        List<Group> out = new ArrayList<>();
        for (Map<String, Object> g : groups) {
            @SuppressWarnings("unchecked")
            List<Map<String, Object>> members = (List<Map<String, Object>>) g.get("members");
            out.add(new Group((String) g.get("group_id"), ((Number) g.get("size")).intValue(),
                members.stream().map(m -> m.get("_index") + "/" + m.get("_id")).toList()));
        }
        return out;
    }

    /** Every group of a report, fetched page by page. */
    List<Group> allGroups(String index, Map<String, Object> body) {
        List<Group> out = new ArrayList<>();
        for (int from = 0; ; from += 1000) {
            Map<String, Object> page = new LinkedHashMap<>(body);
            page.put("from", from);
            page.put("size", 1000);
            page.put("max_members", 10000);
            Rest.Answer a = report(index, page);
            assertEquals(200, a.status(), a.toString());
            List<Group> groups = groups(a);
            out.addAll(groups);
            if (groups.size() < 1000) {
                assertEquals(out.size(), ((Number) a.at("groups_total")).intValue());
                return out;
            }
        }
    }

    /** Equality with a short message: the counts and the first differing group. */
    static void assertSameGroups(List<Group> expected, List<Group> actual, String what) {
        for (int i = 0; i < Math.min(expected.size(), actual.size()); i++) {
            assertEquals(expected.get(i), actual.get(i), what + ": group " + i + " of " + expected.size() + " / " + actual.size());
        }
        assertEquals(expected.size(), actual.size(), what + ": number of groups");
    }

    @Test
    void equalsBruteForceConnectedComponents() {
        int grouped = 0;
        for (int r : new int[] { 0, 3, 5, 8, 11 }) {
            List<Group> expected = expected(Map.of("collapse-dup-3", corpus.docs), r);
            Rest.Answer a = report("collapse-dup-3", ordered("field", "simhash", "max_distance", r, "size", 1000, "max_members", 10000));
            assertEquals(200, a.status(), a.toString());
            assertSameGroups(expected, groups(a), "r=" + r);
            long fingerprinted = corpus.docs.stream().filter(d -> d.hash() != null).count();
            assertEquals(fingerprinted, ((Number) a.at("total_docs")).longValue());
            assertEquals(expected.size(), ((Number) a.at("groups_total")).intValue());
            assertEquals(expected.stream().mapToInt(Group::size).sum(), ((Number) a.at("duplicates_total")).intValue());
            assertEquals(r, ((Number) a.at("max_distance")).intValue());
            assertTrue(a.json().get("took_ms") instanceof Number);
            grouped += expected.size();
        }
        assertTrue(grouped > 100, "the planted groups must show, got " + grouped);
    }

    @Test
    void sameAnswerForAnyShardCountAndRouting() {
        for (int r : new int[] { 2, 4, 7 }) {
            List<List<Group>> answers = new ArrayList<>();
            for (String index : List.of("collapse-dup-1", "collapse-dup-3", "collapse-dup-routed")) {
                // compare by _id: the index names differ
                answers.add(allGroups(index, ordered("field", "simhash", "max_distance", r)).stream().map(g -> new Group(g.groupId(), g.size(),
                    g.members().stream().map(m -> m.substring(m.indexOf('/') + 1)).toList())).toList());
            }
            assertSameGroups(answers.get(0), answers.get(1), "1 vs 3 shards, r=" + r);
            assertSameGroups(answers.get(0), answers.get(2), "1 shard vs 4 shards with custom routing, r=" + r);
        }
    }

    @Test
    void severalIndicesAndAFilterQuery() {
        // the same ids in two indices are different documents with identical fingerprints: every one is in a group
        List<Group> both = allGroups("collapse-dup-1,collapse-dup-3", ordered("field", "simhash", "max_distance", 3));
        assertSameGroups(expected(Map.of("collapse-dup-1", corpus.docs, "collapse-dup-3", corpus.docs), 3), both, "two indices");
        assertSameGroups(both, allGroups("collapse-dup-1*,collapse-dup-3*", ordered("field", "simhash")), "wildcards");

        List<Doc> tagged = corpus.docs.stream().filter(d -> d.tag().equals("a")).toList();
        Rest.Answer filtered = report("collapse-dup-3", ordered("field", "simhash", "max_distance", 5, "size", 1000, "max_members", 10000,
            "query", Map.of("term", Map.of("tag", "a"))));
        assertEquals(200, filtered.status(), filtered.toString());
        assertSameGroups(expected(Map.of("collapse-dup-3", tagged), 5), groups(filtered), "filtered");
        assertEquals(tagged.stream().filter(d -> d.hash() != null).count(), ((Number) filtered.at("total_docs")).longValue());
    }

    @Test
    void pagesOverGroupsAndTruncatedMemberLists() {
        List<Group> whole = expected(Map.of("collapse-dup-3", corpus.docs), 4);
        List<Group> paged = new ArrayList<>();
        for (int from = 0; ; from += 9) {
            Rest.Answer a = report("collapse-dup-3", ordered("field", "simhash", "max_distance", 4, "from", from, "size", 9, "max_members", 3));
            assertEquals(200, a.status(), a.toString());
            assertEquals(whole.size(), ((Number) a.at("groups_total")).intValue());
            List<Group> page = groups(a);
            if (page.isEmpty()) {
                break;
            }
            paged.addAll(page);
        }
        assertSameGroups(whole.stream().map(g -> new Group(g.groupId(), g.size(), g.members().subList(0, Math.min(3, g.size()))))
            .toList(), paged, "paged");
        Rest.Answer countsOnly = report("collapse-dup-3", ordered("field", "simhash", "max_distance", 4, "size", 0));
        assertEquals(List.of(), countsOnly.at("groups"));
        Rest.Answer defaults = report("collapse-dup-3", ordered("field", "simhash"));
        assertEquals(Math.min(10, expected(Map.of("collapse-dup-3", corpus.docs), 3).size()), groups(defaults).size());
    }

    @Test
    void writeGroupIdThenCollapse() {
        String index = "collapse-dup-routed";
        Rest.Answer a = report(index, ordered("field", "simhash", "max_distance", 5, "size", 1000, "max_members", 10000,
            "write_group_id", "dup_group"));
        assertEquals(200, a.status(), a.toString());
        long fingerprinted = corpus.docs.stream().filter(d -> d.hash() != null).count();
        assertEquals("dup_group", a.at("write_group_id.field"));
        assertEquals(fingerprinted, ((Number) a.at("write_group_id.updated")).longValue(), "every fingerprinted document gets a group id");
        rest.ok("POST", "/" + index + "/_refresh", null);

        // collapse on the field: one hit per group, and one per document that is in no group
        Map<String, Integer> label = CollapseCorpus.components(corpus.docs, 5);
        long components = label.values().stream().distinct().count();
        Rest.Answer collapsed = rest.ok("POST", "/" + index + "/_search", toJson(ordered("size", 10000, "track_total_hits", true,
            "query", Map.of("exists", Map.of("field", "dup_group")),
            "collapse", Map.of("field", "dup_group", "inner_hits", Map.of("name", "dups", "size", 100, "_source", false)))));
        List<Map<String, Object>> hits = collapsed.at("hits.hits");
        assertEquals(components, hits.size());
        Map<String, Integer> sizeOfGroup = new HashMap<>();
        for (Map<String, Object> h : hits) {
            @SuppressWarnings("unchecked")
            String group = ((List<String>) ((Map<String, Object>) h.get("fields")).get("dup_group")).get(0);
            @SuppressWarnings("unchecked")
            Map<String, Object> inner = (Map<String, Object>) ((Map<String, Object>) ((Map<String, Object>) h.get("inner_hits")).get("dups"))
                .get("hits");
            sizeOfGroup.put(group, ((Number) ((Map<?, ?>) inner.get("total")).get("value")).intValue());
        }
        for (Group g : groups(a)) {
            assertEquals(g.size(), sizeOfGroup.get(g.groupId()), "group " + g.groupId());
        }
        // documents in no group carry their own fingerprint, which no group uses
        Map<String, Doc> byId = corpus.byId();
        Rest.Answer single = rest.ok("POST", "/" + index + "/_search", toJson(ordered("size", 5, "query", Map.of("bool", Map.of(
            "must_not", List.of(Map.of("terms", Map.of("dup_group", groups(a).stream().map(Group::groupId).toList()))),
            "filter", List.of(Map.of("exists", Map.of("field", "dup_group"))))), "_source", List.of("dup_group"))));
        List<Map<String, Object>> singles = single.at("hits.hits");
        assertTrue(!singles.isEmpty());
        for (Map<String, Object> h : singles) {
            assertEquals(SimHash.toHex(byId.get((String) h.get("_id")).hash()), ((Map<?, ?>) h.get("_source")).get("dup_group"));
        }

        // a second run finds every id in place and writes nothing
        Rest.Answer again = report(index, ordered("field", "simhash", "max_distance", 5, "write_group_id", "dup_group"));
        assertEquals(0, ((Number) again.at("write_group_id.updated")).intValue(), again.toString());
    }

    @Test
    void invalidParametersAnswer400NamingThem() {
        rest.ok("PUT", "/collapse-dup-text", "{\"mappings\": {\"properties\": {\"dup_text\": {\"type\": \"text\"}, \"simhash\": "
            + Fixtures.FP_MAPPING + "}}}");
        Map<String, String> cases = new LinkedHashMap<>();
        cases.put("{}", "[field] is required");
        cases.put("{\"field\": \"\"}", "[field] is required");
        cases.put("{\"field\": 7}", "[_simhash/duplicates] failed to parse field [field]");
        cases.put("{\"field\": \"simhash\", \"max_distance\": 12}", "[max_distance] must be between 0 and 11, got [12]");
        cases.put("{\"field\": \"simhash\", \"max_distance\": -1}", "[max_distance] must be between 0 and 11, got [-1]");
        cases.put("{\"field\": \"simhash\", \"max_distance\": \"x\"}", "[max_distance] must be an integer, got [x]");
        cases.put("{\"field\": \"simhash\", \"max_distance\": 2.5}", "[max_distance] must be an integer, got [2.5]");
        cases.put("{\"field\": \"simhash\", \"size\": 1001}", "[size] must be between 0 and 1000, got [1001]");
        cases.put("{\"field\": \"simhash\", \"from\": -3}", "[from] must be between 0 and 2147483647, got [-3]");
        cases.put("{\"field\": \"simhash\", \"max_members\": 10001}", "[max_members] must be between 0 and 10000, got [10001]");
        cases.put("{\"field\": \"simhash\", \"bogus\": 1}", "[_simhash/duplicates] unknown field [bogus]");
        cases.put("{\"field\": \"simhash\", \"query\": 3}", "[_simhash/duplicates] failed to parse field [query]");
        cases.put("{\"field\": \"simhash\", \"query\": {\"nope\": {}}}", "[nope]");
        cases.put("{\"field\": \"simhash\", \"write_group_id\": \"_id\"}", "[write_group_id] must not name a metadata field");
        cases.put("{\"write_group_id\": \"simhash.g\", \"field\": \"simhash\"}", "[write_group_id] must not be inside the fingerprint object");
        cases.put("{\"field\": \"simhash\", \"write_group_id\": \"missing_field\"}", "[write_group_id] field [missing_field] must be mapped "
            + "as [keyword]");
        cases.put("{\"field\": \"simhash\", \"write_group_id\": \"dup_text\"}", "[write_group_id] field [dup_text] must be mapped as "
            + "[keyword] with doc values in every target index (collapse needs it), found [text]");
        cases.put("{\"field\": \"dup_text\"}", "[field] [dup_text] is a [text] field");
        cases.put("{\"field\": \"nope\"}", "[field] [nope] is neither a [simhash] field nor a fingerprint object");
        cases.put("[1]", "[_simhash/duplicates] Expected START_OBJECT");
        cases.put("{\"field\": ", "");
        for (Map.Entry<String, String> c : cases.entrySet()) {
            Rest.Answer a = rest.post("/collapse-dup-text/_simhash/duplicates", c.getKey());
            assertEquals(400, a.status(), c.getKey() + " -> " + a);
            assertTrue(a.body().contains(c.getValue()), c.getKey() + " -> " + a);
        }
        Rest.Answer noBody = rest.post("/collapse-dup-text/_simhash/duplicates", null);
        assertEquals(400, noBody.status(), noBody.toString());
        assertTrue(noBody.body().contains("[field] is required"), noBody.toString());
        Rest.Answer urlParam = rest.post("/collapse-dup-text/_simhash/duplicates?bogus=1", "{\"field\": \"simhash\"}");
        assertEquals(400, urlParam.status(), urlParam.toString());
        assertTrue(urlParam.body().contains("unrecognized parameter: [bogus]"), urlParam.toString());
        Rest.Answer get = rest.get("/collapse-dup-text/_simhash/duplicates");
        assertEquals(405, get.status(), get.toString());
        Rest.Answer missing = rest.post("/collapse-dup-missing/_simhash/duplicates", "{\"field\": \"simhash\"}");
        assertEquals(404, missing.status(), missing.toString());
        Rest.Answer empty = report("collapse-dup-text", ordered("field", "simhash"));
        assertEquals(200, empty.status(), empty.toString());
        assertEquals(0, ((Number) empty.at("total_docs")).intValue());
        rest.delete("/collapse-dup-text");
        assertEquals("green", rest.get("/_cluster/health?wait_for_status=green&timeout=10s").at("status"));
    }

    @Test
    void runsAsACancellableTask() throws Exception {
        // fingerprints sharing blocks 0..2: three of the four block tables hold one huge bucket, so grouping takes seconds
        String index = "collapse-dup-slow";
        rest.ok("PUT", "/" + index, CollapseCorpus.mapping(2));
        Random r = new Random(99);
        long shared = r.nextLong() & ~0xFFFFL;
        StringBuilder ndjson = new StringBuilder();
        for (int i = 0; i < 60_000; i++) {
            ndjson.append("{\"index\":{}}\n").append(toJson(Map.of("simhash", Fixtures.storedForm(shared | r.nextInt(1 << 16)))))
                .append('\n');
            if (i % 10_000 == 9_999) {
                assertEquals(200, rest.bulk("/" + index + "/_bulk", ndjson.toString()).status());
                ndjson.setLength(0);
            }
        }
        rest.ok("POST", "/" + index + "/_refresh", null);

        CompletableFuture<Rest.Answer> pending = new CompletableFuture<>();
        Request request = new Request("POST", "/" + index + "/_simhash/duplicates");
        request.setEntity(new NStringEntity("{\"field\": \"simhash\", \"max_distance\": 2}", ContentType.APPLICATION_JSON));
        rest.client().performRequestAsync(request, new ResponseListener() {
            @Override
            public void onSuccess(Response response) {
                pending.complete(answer(response));
            }

            @Override
            public void onFailure(Exception e) {
                pending.complete(e instanceof ResponseException re ? answer(re.getResponse()) : new Rest.Answer(-1, e.toString()));
            }
        });
        String taskId = null;
        Map<String, Object> task = null;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (taskId == null && !pending.isDone() && System.nanoTime() < deadline) {
            Rest.Answer tasks = rest.get("/_tasks?actions=*simhash*&detailed");
            Map<String, Object> nodes = tasks.at("nodes");
            for (Object node : nodes.values()) {
                @SuppressWarnings("unchecked")
                Map<String, Map<String, Object>> nodeTasks = (Map<String, Map<String, Object>>) ((Map<String, Object>) node).get("tasks");
                for (Map.Entry<String, Map<String, Object>> e : nodeTasks.entrySet()) {
                    if ("indices:data/read/simhash/duplicates".equals(e.getValue().get("action"))) {
                        taskId = e.getKey();
                        task = e.getValue();
                    }
                }
            }
            Thread.sleep(50);
        }
        assertNotNull(taskId, "the report task never showed in _tasks; answer: " + (pending.isDone() ? pending.get() : "pending"));
        assertEquals(Boolean.TRUE, task.get("cancellable"));
        assertTrue(String.valueOf(task.get("description")).contains("simhash duplicates indices[" + index + "], field[simhash]"),
            task.toString());
        Rest.Answer cancel = rest.post("/_tasks/" + taskId + "/_cancel", null);
        assertEquals(200, cancel.status(), cancel.toString());
        Rest.Answer answer = pending.get(60, TimeUnit.SECONDS);
        assertEquals(400, answer.status(), answer.toString());
        assertTrue(answer.body().contains("task_cancelled_exception"), answer.toString());
        // nothing left running, and the node still answers reports
        Rest.Answer after = rest.get("/_tasks?actions=*simhash*");
        for (int i = 0; i < 50 && after.body().contains("simhash/duplicates"); i++) {
            Thread.sleep(100);
            after = rest.get("/_tasks?actions=*simhash*");
        }
        assertTrue(!after.body().contains("simhash/duplicates"), after.toString());
        assertEquals(200, report("collapse-dup-1", ordered("field", "simhash")).status());
        rest.delete("/" + index);
    }

    private static Rest.Answer answer(Response response) {
        try {
            return new Rest.Answer(response.getStatusLine().getStatusCode(),
                response.getEntity() == null ? "" : EntityUtils.toString(response.getEntity(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
