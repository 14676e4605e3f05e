package dev.simhash.chaos;

import dev.simhash.it.support.Rest;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import static dev.simhash.chaos.ChaosLoad.hex;
import static dev.simhash.it.support.Rest.toJson;

/**
 * The checks after the load: acknowledged documents and their fingerprints, reports and stored group ids, queries against
 * brute force, weight tables, heap, breakers and the nodes' logs. Each check passes or fails with a short detail.
 */
final class ChaosChecks {

    /** One check's result. */
    record Check(String name, boolean passed, String detail) {}

    /** A document as it is stored at the end: id, fingerprint (null without one) and written group id (null without one). */
    record Doc(String id, Long fp, String group) {}

    private static final int SIMULATE_BATCH = 100;
    private static final int[] CHECK_RADII = { 0, 3, 6, 11, 20 };
    private static final double HEAP_FACTOR = 1.5;
    private static final long HEAP_SLACK = 96L << 20;

    private final ChaosState s;
    private final ChaosLoad load;
    private final Rest rest;
    private final PrintStream log;
    final List<Check> checks = new ArrayList<>();
    private final Map<ChaosState.Index, Map<String, Doc>> docs = new HashMap<>();
    private final Map<ChaosState.Index, Map<String, String>> groups = new HashMap<>();

    ChaosChecks(ChaosState s, ChaosLoad load, PrintStream log) {
        this.s = s;
        this.load = load;
        this.rest = s.rest;
        this.log = log;
    }

    void add(String name, boolean passed, String detail) {
        checks.add(new Check(name, passed, detail));
        log.printf(Locale.ROOT, "[chaos] check %-4s %s: %s%n", passed ? "ok" : "FAIL", name, detail);
    }

    /** Runs every data check on the quiet, green cluster. */
    void run() {
        for (ChaosState.Index index : ChaosState.INDICES) {
            guard("group ids rewritten " + index.name(), () -> rewriteGroups(index));
        }
        rest.ok("POST", "/chaos-*/_refresh", null);
        for (ChaosState.Index index : ChaosState.INDICES) {
            guard("documents " + index.name(), () -> docs.put(index, readAll(index)));
            if (!docs.containsKey(index)) {
                continue;
            }
            guard("acknowledged documents present " + index.name(), () -> ackedPresent(index));
            guard("fingerprints equal the processor's " + index.name(), () -> fingerprints(index));
            guard("report equals brute force " + index.name(), () -> reportVersusBruteForce(index));
            guard("stored group ids " + index.name(), () -> storedGroups(index));
            guard("queries equal brute force " + index.name(), () -> queriesVersusBruteForce(index));
            guard("folds " + index.name(), () -> folds(index));
        }
        guard("text query finds each document at distance 0", this::textAtDistanceZero);
        guard("reports during the load", this::loadReports);
        guard("weight tables", this::weights);
    }

    private void guard(String name, Runnable check) {
        try {
            check.run();
        } catch (RuntimeException | AssertionError e) {
            StackTraceElement[] at = e.getStackTrace();
            add(name, false, "could not run: " + Outcomes.abbreviate(String.valueOf(e), 800) + (at.length == 0 ? "" : " at " + at[0]));
        }
    }

    // ---- documents and fingerprints ----------------------------------------------------------------------------------

    /**
     * Reruns the report with write_group_id, so that writes interrupted by kills are completed; in the background, since
     * rewriting every document can outlast the client's socket timeout (which would cancel a synchronous report).
     */
    private void rewriteGroups(ChaosState.Index index) {
        Rest.Answer a = rest.ok("POST", "/" + index.name() + "/_simhash/duplicates?wait_for_completion=false", toJson(Map.of("field", index
            .field(), "max_distance", ChaosState.REPORT_DISTANCE, "write_group_id", ChaosState.GROUP_FIELD, "size", 0)));
        ReportRun run = new ReportRun(index, a.at("task"), a.at("id"), System.nanoTime());
        load.awaitReport(run);
        if (run.end != ReportRun.End.COMPLETED) {
            throw new AssertionError("the rewrite of group ids ended " + run.end + ": " + run.error);
        }
        log.println("[chaos] rewrite of group ids in " + index.name() + ": " + toJson(run.response.get("write_group_id")));
    }

    private Map<String, Doc> readAll(ChaosState.Index index) {
        Map<String, Doc> out = new LinkedHashMap<>();
        Map<String, Object> body = Map.of("size", 2000, "sort", List.of("_doc"), "_source", false, "docvalue_fields", List.of(index
            .docValue(), ChaosState.GROUP_FIELD));
        Rest.Answer a = rest.ok("POST", "/" + index.name() + "/_search?scroll=2m", toJson(body));
        String scroll = a.at("_scroll_id");
        while (true) {
            List<Map<String, Object>> hits = a.at("hits.hits");
            if (hits.isEmpty()) {
                break;
            }
            for (Map<String, Object> hit : hits) {
                String id = (String) hit.get("_id");
                Object group = hit.get("fields") instanceof Map<?, ?> f && f.get(ChaosState.GROUP_FIELD) instanceof List<?> l ? l.get(0) : null;
                out.put(id, new Doc(id, ChaosLoad.fingerprintOf(hit, index), (String) group));
            }
            a = rest.ok("POST", "/_search/scroll", toJson(Map.of("scroll", "2m", "scroll_id", scroll)));
            scroll = a.at("_scroll_id");
        }
        rest.call("DELETE", "/_search/scroll", toJson(Map.of("scroll_id", scroll)));
        Number total = rest.ok("GET", "/" + index.name() + "/_count", null).at("count");
        if (total.intValue() != out.size()) {
            throw new AssertionError("scroll read " + out.size() + " documents, _count says " + total);
        }
        return out;
    }

    private void ackedPresent(ChaosState.Index index) {
        Map<String, Doc> all = docs.get(index);
        List<String> missing = s.acked.get(index).keySet().stream().filter(id -> !all.containsKey(id)).sorted().toList();
        add("acknowledged documents present " + index.name(), missing.isEmpty(), String.format(Locale.ROOT,
            "%,d acknowledged, %,d in the index, %d missing%s", s.acked.get(index).size(), all.size(), missing.size(),
            missing.isEmpty() ? "" : " e.g. " + missing.subList(0, Math.min(10, missing.size()))));
    }

    private void fingerprints(ChaosState.Index index) {
        List<ChaosState.Acked> acked = new ArrayList<>(s.acked.get(index).values());
        int compared = 0;
        List<String> wrong = new ArrayList<>();
        for (int from = 0; from < acked.size(); from += SIMULATE_BATCH) {
            List<ChaosState.Acked> batch = acked.subList(from, Math.min(acked.size(), from + SIMULATE_BATCH));
            List<Long> expected = simulate(index, batch.stream().map(ChaosState.Acked::text).toList());
            for (int i = 0; i < batch.size(); i++) {
                Doc d = docs.get(index).get(batch.get(i).id());
                if (d == null) {
                    continue;   // counted by the presence check
                }
                compared++;
                if (!expected.get(i).equals(d.fp())) {
                    wrong.add(batch.get(i).id() + " stored " + (d.fp() == null ? "none" : hex(d.fp())) + " processor " + hex(expected.get(i)));
                }
            }
        }
        add("fingerprints equal the processor's " + index.name(), wrong.isEmpty() && compared > 0, String.format(Locale.ROOT,
            "%,d compared with _ingest/pipeline/_simulate, %d differ%s", compared, wrong.size(), wrong.isEmpty() ? "" : ": " + wrong
                .subList(0, Math.min(5, wrong.size()))));
    }

    /** The plugin's fingerprints of texts: the index's own pipeline, or an inline v2 processor for the field type. */
    List<Long> simulate(ChaosState.Index index, List<String> texts) {
        List<Map<String, Object>> sim = texts.stream().map(t -> Map.<String, Object>of("_source", Map.of("body", t))).toList();
        Rest.Answer a = index.fieldType()
            ? rest.ok("POST", "/_ingest/pipeline/_simulate", toJson(Map.of("pipeline", Map.of("processors", List.of(Map.of("simhash", Map
                .of("field", "body", "version", "v2")))), "docs", sim)))
            : rest.ok("POST", "/_ingest/pipeline/" + ChaosState.PIPELINE + "/_simulate", toJson(Map.of("docs", sim)));
        List<Map<String, Object>> out = a.at("docs");
        List<Long> hashes = new ArrayList<>();
        for (Map<String, Object> d : out) {
            Object hash = new Rest.Answer(200, toJson(d)).at("doc._source.simhash.hash");
            if (!(hash instanceof Number n)) {
                throw new AssertionError("_simulate gave no fingerprint: " + toJson(d));
            }
            hashes.add(n.longValue());
        }
        return hashes;
    }

    private void textAtDistanceZero() {
        Random r = new Random(s.seed + 99);
        List<ChaosState.Acked> acked = new ArrayList<>(s.acked.get(ChaosState.FIELD).values());
        acked.sort((x, y) -> x.id().compareTo(y.id()));
        int n = 0;
        List<String> notFound = new ArrayList<>();
        for (int i = 0; i < 30 && !acked.isEmpty(); i++) {
            ChaosState.Acked doc = acked.get(r.nextInt(acked.size()));
            Rest.Answer a = rest.ok("POST", "/" + ChaosState.FIELD.name() + "/_search", toJson(Map.of("size", 10000, "_source", false,
                "query", Map.of("simhash", Map.of("field", ChaosState.FIELD.field(), "text", doc.text(), "max_distance", 0)))));
            List<Map<String, Object>> hits = a.at("hits.hits");
            n++;
            if (hits.stream().noneMatch(h -> doc.id().equals(h.get("_id")))) {
                notFound.add(doc.id());
            }
        }
        add("text query finds each document at distance 0", notFound.isEmpty() && n > 0, n + " texts queried on " + ChaosState.FIELD
            .name() + (notFound.isEmpty() ? "" : ", not found: " + notFound));
    }

    // ---- groups ------------------------------------------------------------------------------------------------------

    /** Brute-force connected components within the report radius: document id to group id, for documents in groups. */
    private Map<String, String> bruteForceGroups(ChaosState.Index index) {
        return groups.computeIfAbsent(index, i -> {
            List<Doc> list = docs.get(i).values().stream().filter(d -> d.fp() != null).toList();
            int n = list.size();
            int[] parent = new int[n];
            long[] fp = new long[n];
            for (int a = 0; a < n; a++) {
                parent[a] = a;
                fp[a] = list.get(a).fp();
            }
            for (int a = 0; a < n; a++) {
                for (int b = a + 1; b < n; b++) {
                    if (Long.bitCount(fp[a] ^ fp[b]) <= ChaosState.REPORT_DISTANCE) {
                        parent[find(parent, a)] = find(parent, b);
                    }
                }
            }
            Map<Integer, Long> minFp = new HashMap<>();
            Map<Integer, Integer> size = new HashMap<>();
            for (int a = 0; a < n; a++) {
                int root = find(parent, a);
                minFp.merge(root, fp[a], (x, y) -> Long.compareUnsigned(x, y) <= 0 ? x : y);
                size.merge(root, 1, Integer::sum);
            }
            Map<String, String> out = new HashMap<>();
            for (int a = 0; a < n; a++) {
                int root = find(parent, a);
                if (size.get(root) > 1) {
                    out.put(list.get(a).id(), hex(minFp.get(root)));
                }
            }
            return out;
        });
    }

    private static int find(int[] parent, int a) {
        while (parent[a] != a) {
            parent[a] = parent[parent[a]];
            a = parent[a];
        }
        return a;
    }

    private static Set<String> asGroupSet(Map<String, String> docToGroup) {
        Map<String, TreeSet<String>> byGroup = new HashMap<>();
        docToGroup.forEach((doc, g) -> byGroup.computeIfAbsent(g, k -> new TreeSet<>()).add(doc));
        Set<String> out = new HashSet<>();
        byGroup.forEach((g, members) -> out.add(g + " " + members));
        return out;
    }

    private void reportVersusBruteForce(ChaosState.Index index) {
        Map<String, String> fresh = new HashMap<>();
        int pages = 0;
        for (int from = 0;; from += 1000) {
            Rest.Answer a = rest.ok("POST", "/" + index.name() + "/_simhash/duplicates", toJson(Map.of("field", index.field(), "max_distance",
                ChaosState.REPORT_DISTANCE, "from", from, "size", 1000, "max_members", 10000)));
            pages++;
            List<Map<String, Object>> page = a.at("groups");
            for (Map<String, Object> g : page) {
                @SuppressWarnings("unchecked")
                List<Map<String, Object>> members = (List<Map<String, Object>>) g.get("members");
                for (Map<String, Object> m : members) {
                    fresh.put((String) m.get("_id"), (String) g.get("group_id"));
                }
            }
            if (page.size() < 1000) {
                break;
            }
        }
        Set<String> expected = asGroupSet(bruteForceGroups(index));
        Set<String> actual = asGroupSet(fresh);
        Set<String> onlyReport = new TreeSet<>(actual);
        onlyReport.removeAll(expected);
        Set<String> onlyBrute = new TreeSet<>(expected);
        onlyBrute.removeAll(actual);
        add("report equals brute force " + index.name(), onlyReport.isEmpty() && onlyBrute.isEmpty(), String.format(Locale.ROOT,
            "%,d groups (%,d documents in groups) by brute force at max_distance %d, %,d in the report (%d pages); %d only in the report,"
                + " %d only by brute force%s", expected.size(), bruteForceGroups(index).size(), ChaosState.REPORT_DISTANCE, actual.size(),
            pages, onlyReport.size(), onlyBrute.size(), onlyReport.isEmpty() ? "" : ", e.g. " + Outcomes.abbreviate(onlyReport.iterator()
                .next(), 300)));
    }

    private void storedGroups(ChaosState.Index index) {
        Map<String, String> bf = bruteForceGroups(index);
        int checked = 0;
        List<String> wrong = new ArrayList<>();
        for (Doc d : docs.get(index).values()) {
            if (d.fp() == null) {
                continue;
            }
            checked++;
            String expected = bf.getOrDefault(d.id(), hex(d.fp()));
            if (!expected.equals(d.group())) {
                wrong.add(d.id() + " has " + d.group() + ", expected " + expected);
            }
        }
        add("stored group ids " + index.name(), wrong.isEmpty() && checked > 0, String.format(Locale.ROOT,
            "%,d documents' [%s] compared with brute-force groups after a rerun with write_group_id, %d differ%s", checked,
            ChaosState.GROUP_FIELD, wrong.size(), wrong.isEmpty() ? "" : ": " + wrong.subList(0, Math.min(5, wrong.size()))));
    }

    /** Every report completed during the load lists groups that are consistent with the final data. */
    private void loadReports() {
        Map<ReportRun.End, Integer> ends = new LinkedHashMap<>();
        List<String> problems = new ArrayList<>();
        Map<String, Integer> failures = new HashMap<>();
        int groupsChecked = 0;
        for (ReportRun run : s.reports) {
            ends.merge(run.end, 1, Integer::sum);
            switch (run.end) {
                case COMPLETED -> groupsChecked += checkLoadReport(run, problems);
                case FAILED -> {
                    failures.merge(run.error.split(" \\{", 2)[0], 1, Integer::sum);
                    if (run.errorCategory != Outcomes.Category.UNAVAILABLE && run.errorCategory != Outcomes.Category.REJECTED) {
                        problems.add("report " + run.taskId + " stored an error that is not unavailability: " + Outcomes.abbreviate(run.error,
                            600));
                    }
                }
                case LOST -> {
                    Integer node = s.nodeIdToIndex.get(run.nodeId());
                    if (node == null || !s.killedBetween(node, run.startedAt, run.endedAt)) {
                        problems.add("report " + run.taskId + " lost (404) although its node was not killed: " + Outcomes.abbreviate(
                            run.error, 300));
                    }
                }
                default -> problems.add("report " + run.taskId + " on " + run.index.name() + " did not end within the polling limit");
            }
        }
        add("reports during the load", problems.isEmpty() && !s.reports.isEmpty(), String.format(Locale.ROOT,
            "%d reports: %s; %,d listed groups of completed ones checked against the final data; stored errors %s%s", s.reports.size(),
            ends, groupsChecked, failures, problems.isEmpty() ? "" : "; problems: " + problems.subList(0, Math.min(5, problems.size()))));
    }

    private int checkLoadReport(ReportRun run, List<String> problems) {
        Map<String, Doc> all = docs.get(run.index);
        Map<String, String> bf = bruteForceGroups(run.index);
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> listed = (List<Map<String, Object>>) run.response.get("groups");
        for (Map<String, Object> g : listed) {
            @SuppressWarnings("unchecked")
            List<Map<String, Object>> members = (List<Map<String, Object>>) g.get("members");
            int size = ((Number) g.get("size")).intValue();
            String id = (String) g.get("group_id");
            Set<String> finalGroups = new HashSet<>();
            Long min = null;
            for (Map<String, Object> m : members) {
                Doc d = all.get((String) m.get("_id"));
                if (d == null || d.fp() == null) {
                    problems.add("report " + run.taskId + " lists " + m.get("_id") + ", which is not in the final data");
                    continue;
                }
                finalGroups.add(bf.get(d.id()));
                min = min == null || Long.compareUnsigned(d.fp(), min) < 0 ? d.fp() : min;
            }
            // documents only get added, and groups are connected components: a group then lies within one group now
            if (finalGroups.size() != 1 || finalGroups.contains(null)) {
                problems.add("report " + run.taskId + " group " + id + " spans final groups " + finalGroups);
            }
            if (size < 2 || (members.size() == size && (min == null || !hex(min).equals(id)))) {
                problems.add("report " + run.taskId + " group " + id + " (size " + size + ") is not its smallest fingerprint " + (min == null
                    ? "-" : hex(min)));
            }
        }
        return listed.size();
    }

    // ---- queries -----------------------------------------------------------------------------------------------------

    private void queriesVersusBruteForce(ChaosState.Index index) {
        List<Doc> all = docs.get(index).values().stream().filter(d -> d.fp() != null).toList();
        Random r = new Random(s.seed + index.name().hashCode());
        int queries = 0;
        List<String> wrong = new ArrayList<>();
        for (int q = 0; q < 15; q++) {
            long hash = q < 10 ? ChaosLoad.flip(all.get(r.nextInt(all.size())).fp(), q % 5, r) : r.nextLong();
            for (int radius : CHECK_RADII) {
                Set<String> expected = new TreeSet<>();
                for (Doc d : all) {
                    if (Long.bitCount(d.fp() ^ hash) <= radius) {
                        expected.add(d.id());
                    }
                }
                if (expected.size() > 10000) {
                    continue;
                }
                Set<String> actual = ids(query(index, Map.of("field", index.field(), "hash", hex(hash), "max_distance", radius), 10000));
                queries++;
                if (!expected.equals(actual)) {
                    wrong.add("hash " + hex(hash) + " r " + radius + ": " + expected.size() + " expected, " + actual.size() + " hits");
                }
            }
            // k nearest: the distances must be the k smallest of the index
            List<Integer> nearest = all.stream().map(d -> Long.bitCount(d.fp() ^ hash)).sorted().limit(7).toList();
            List<Map<String, Object>> hits = query(index, Map.of("field", index.field(), "hash", hex(hash), "k", 7), 7).at("hits.hits");
            List<Integer> got = hits.stream().map(h -> Long.bitCount(ChaosLoad.fingerprintOf(h, index) ^ hash)).sorted().toList();
            queries++;
            if (!nearest.equals(got)) {
                wrong.add("hash " + hex(hash) + " k 7: distances " + got + ", brute force " + nearest);
            }
        }
        // like (the liked document left out) and text (its fingerprint by _simulate) at the report radius
        List<ChaosState.Acked> acked = new ArrayList<>(s.acked.get(index).values());
        acked.sort((x, y) -> x.id().compareTo(y.id()));
        for (int q = 0; q < 5 && !acked.isEmpty(); q++) {
            ChaosState.Acked doc = acked.get(r.nextInt(acked.size()));
            long fp = simulate(index, List.of(doc.text())).get(0);
            Set<String> expected = new TreeSet<>();
            for (Doc d : all) {
                if (Long.bitCount(d.fp() ^ fp) <= ChaosState.REPORT_DISTANCE) {
                    expected.add(d.id());
                }
            }
            Map<String, Object> text = new HashMap<>(Map.of("field", index.field(), "text", doc.text(), "max_distance",
                ChaosState.REPORT_DISTANCE));
            if (!index.fieldType()) {
                text.put("version", "v2");
            }
            Set<String> byText = ids(query(index, text, 10000));
            Set<String> byLike = ids(query(index, Map.of("field", index.field(), "like", Map.of("index", index.name(), "id", doc.id()),
                "max_distance", ChaosState.REPORT_DISTANCE), 10000));
            queries += 2;
            if (!expected.equals(byText)) {
                wrong.add("text of " + doc.id() + ": " + expected.size() + " expected, " + byText.size() + " hits");
            }
            Set<String> expectedLike = new TreeSet<>(expected);
            expectedLike.remove(doc.id());
            if (!expectedLike.equals(byLike)) {
                wrong.add("like " + doc.id() + ": " + expectedLike.size() + " expected, " + byLike.size() + " hits");
            }
        }
        add("queries equal brute force " + index.name(), wrong.isEmpty() && queries > 0, String.format(Locale.ROOT,
            "%d queries (hash at radii 0/3/6/11/20, k 7, text and like at %d) over %,d fingerprints, %d differ%s", queries,
            ChaosState.REPORT_DISTANCE, all.size(), wrong.size(), wrong.isEmpty() ? "" : ": " + wrong.subList(0, Math.min(5, wrong
                .size()))));
    }

    private Rest.Answer query(ChaosState.Index index, Map<String, Object> simhash, int size) {
        Rest.Answer a = rest.ok("POST", "/" + index.name() + "/_search", toJson(Map.of("size", size, "_source", false, "docvalue_fields",
            List.of(index.docValue()), "query", Map.of("simhash", simhash))));
        if (((Number) a.at("_shards.failed")).intValue() != 0) {
            throw new AssertionError("shard failures on the quiet cluster: " + Outcomes.abbreviate(a.body(), 800));
        }
        return a;
    }

    private static Set<String> ids(Rest.Answer a) {
        List<Map<String, Object>> hits = a.at("hits.hits");
        Set<String> out = new TreeSet<>();
        hits.forEach(h -> out.add((String) h.get("_id")));
        return out;
    }

    /** Folds: representatives are more than the radius apart, members within it and at the distance stated. */
    private void folds(ChaosState.Index index) {
        Map<String, Doc> all = docs.get(index);
        List<String> wrong = new ArrayList<>();
        int folds = 0;
        int members = 0;
        for (int base = 0; base < 6; base++) {
            int radius = ChaosLoad.RADII[base % 3];
            Rest.Answer a = rest.ok("POST", String.format(Locale.ROOT, "/%s/_simhash/fold?field=%s&max_distance=%d&window=500&members=100",
                index.name(), index.field(), radius), toJson(Map.of("size", 500, "_source", false, "query", Map.of("term", Map.of("base",
                base)))));
            folds++;
            List<Map<String, Object>> hits = a.at("hits.hits");
            List<Long> reps = new ArrayList<>();
            for (Map<String, Object> hit : hits) {
                long rep = all.get((String) hit.get("_id")).fp();
                for (Long other : reps) {
                    if (Long.bitCount(other ^ rep) <= radius) {
                        wrong.add("representatives " + hex(other) + " and " + hex(rep) + " within " + radius);
                    }
                }
                reps.add(rep);
                @SuppressWarnings("unchecked")
                Map<String, Object> sh = (Map<String, Object>) hit.get("_simhash");
                @SuppressWarnings("unchecked")
                List<Map<String, Object>> ms = (List<Map<String, Object>>) sh.get("members");
                for (Map<String, Object> m : ms) {
                    members++;
                    int d = Long.bitCount(all.get((String) m.get("_id")).fp() ^ rep);
                    if (d > radius || d != ((Number) m.get("distance")).intValue()) {
                        wrong.add(m.get("_id") + " folded under " + hit.get("_id") + " at stated distance " + m.get("distance") + ", actual " + d);
                    }
                }
            }
        }
        add("folds " + index.name(), wrong.isEmpty() && folds > 0, String.format(Locale.ROOT,
            "%d folds of one base text's variants, %d members checked, %d problems%s", folds, members, wrong.size(), wrong.isEmpty() ? ""
                : ": " + wrong.subList(0, Math.min(5, wrong.size()))));
    }

    // ---- weight tables -------------------------------------------------------------------------------------------------

    private void weights() {
        Map<String, Object> body = Map.of("index", ChaosState.FIELD.name(), "field", "body", "version", "v2", "sample_size", 2000, "seed", 7,
            "max_features", 2000);
        rest.ok("PUT", "/_simhash/weights/chaos-final-a", toJson(body));
        rest.ok("PUT", "/_simhash/weights/chaos-final-b", toJson(body));
        Object a = rest.ok("GET", "/_simhash/weights/chaos-final-a?features=true", null).at("features");
        Object b = rest.ok("GET", "/_simhash/weights/chaos-final-b?features=true", null).at("features");
        rest.ok("DELETE", "/_simhash/weights/chaos-final-a", null);
        rest.ok("DELETE", "/_simhash/weights/chaos-final-b", null);
        // a DELETE during the load that got no answer (its node was killed) may have left its table: remove those
        List<Map<String, Object>> tables = rest.ok("GET", "/_simhash/weights", null).at("tables");
        List<String> left = new ArrayList<>();
        for (Map<String, Object> t : tables) {
            String name = (String) t.get("name");
            if (name.startsWith("chaos-")) {
                left.add(name);
                rest.ok("DELETE", "/_simhash/weights/" + name, null);
            }
        }
        add("weight tables", a != null && a.equals(b), String.format(Locale.ROOT,
            "two tables computed with the same seed on the final data are %s (%d features); %d tables of the load left by a DELETE"
                + " without answer, deleted now: %s", a != null && a.equals(b) ? "equal" : "DIFFERENT", a instanceof Map<?, ?> m ? m.size()
                    : -1, left.size(), left));
    }

    // ---- nodes ---------------------------------------------------------------------------------------------------------

    /** Each node's used heap after a full GC, by node name. */
    static Map<String, Long> heapAfterGc(ChaosState s) throws IOException {
        for (int i = 0; i < s.cluster.size(); i++) {
            s.cluster.fullGc(i);
        }
        ChaosLoad.pause(1000);
        Map<String, Object> nodes = s.rest.ok("GET", "/_nodes/stats/jvm", null).at("nodes");
        Map<String, Long> out = new HashMap<>();
        for (Object n : nodes.values()) {
            Rest.Answer node = new Rest.Answer(200, toJson(n));
            out.put(node.at("name"), ((Number) node.at("jvm.mem.heap_used_in_bytes")).longValue());
        }
        return out;
    }

    void heap(Map<String, Long> before, Map<String, Long> after) {
        List<String> parts = new ArrayList<>();
        boolean ok = true;
        for (String node : new TreeSet<>(before.keySet())) {
            long b = before.get(node);
            Long a = after.get(node);
            boolean fine = a != null && a <= b * HEAP_FACTOR + HEAP_SLACK;
            ok &= fine;
            parts.add(String.format(Locale.ROOT, "%s %s -> %s%s", node, mb(b), a == null ? "?" : mb(a), fine ? "" : " (too high)"));
        }
        add("heap back near its baseline", ok, String.join(", ", parts) + String.format(Locale.ROOT,
            " (used heap after a full GC, before and after the load; allowed: %.1f x before + %s)", HEAP_FACTOR, mb(HEAP_SLACK)));
    }

    void breakers() {
        String detail = "";
        for (int attempt = 0; attempt < 10; attempt++) {
            Map<String, Object> nodes = rest.ok("GET", "/_nodes/stats/breaker", null).at("nodes");
            List<String> held = new ArrayList<>();
            for (Object n : nodes.values()) {
                Rest.Answer node = new Rest.Answer(200, toJson(n));
                long est = ((Number) node.at("breakers.request.estimated_size_in_bytes")).longValue();
                if (est != 0) {
                    held.add(node.at("name") + " " + est + " bytes");
                }
            }
            if (held.isEmpty()) {
                add("request breakers released", true, "request breaker estimate 0 on every node");
                return;
            }
            detail = String.join(", ", held);
            ChaosLoad.pause(1000);
        }
        add("request breakers released", false, "still held 10 s after the load: " + detail);
    }

    void logs() {
        List<String> found = new ArrayList<>();
        for (int i = 0; i < s.cluster.size(); i++) {
            Path nodeDir = s.cluster.logs(i).getParent();
            try (Stream<Path> files = Files.walk(nodeDir)) {
                for (Path f : files.filter(Files::isRegularFile).toList()) {
                    String name = f.getFileName().toString();
                    if (name.endsWith(".hprof")) {
                        found.add("heap dump " + f);
                    } else if (f.startsWith(s.cluster.logs(i)) && (name.endsWith(".log") || name.endsWith(".json"))) {
                        String text = Files.readString(f, StandardCharsets.ISO_8859_1);
                        if (text.contains("java.lang.OutOfMemoryError")) {
                            found.add("OutOfMemoryError in " + f);
                        }
                    }
                }
            } catch (IOException | RuntimeException e) {
                found.add("could not read " + nodeDir + ": " + e);
            }
        }
        add("no OutOfMemoryError", found.isEmpty(), found.isEmpty() ? "no OutOfMemoryError in any node's logs, no heap dump" : String.join(
            "; ", found));
    }

    static String mb(long bytes) {
        return String.format(Locale.ROOT, "%.0f MB", bytes / 1048576.0);
    }
}
