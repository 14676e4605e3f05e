package dev.simhash.chaos;

import dev.simhash.it.support.Rest;

import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

import static dev.simhash.it.support.Rest.toJson;

/**
 * The chaos run's client threads: bulk indexing into both indices, {@code simhash} queries and folds, background reports
 * with {@code write_group_id}, weight tables, and large requests to the node whose heap is squeezed.
 */
final class ChaosLoad {

    static final int BULK_DOCS = 20;
    static final int[] RADII = { 3, 6, 11 };
    private static final long REPORT_POLL_MILLIS = 1000;
    private static final long REPORT_POLL_LIMIT_NANOS = 240_000_000_000L;

    private final ChaosState s;

    ChaosLoad(ChaosState s) {
        this.s = s;
    }

    /** Starts the client threads; they stop when the state says so. */
    List<Thread> start() {
        List<Thread> threads = new ArrayList<>();
        for (ChaosState.Index index : ChaosState.INDICES) {
            int t = threads.size();
            threads.add(Thread.ofPlatform().name("chaos-bulk-" + index.name()).start(() -> indexLoop(index, t)));
        }
        threads.add(Thread.ofPlatform().name("chaos-query").start(this::queryLoop));
        threads.add(Thread.ofPlatform().name("chaos-reports").start(this::reportLoop));
        threads.add(Thread.ofPlatform().name("chaos-squeeze").start(this::squeezeLoop));
        return threads;
    }

    // ---- requests ------------------------------------------------------------------------------------------------

    /** Sends a request, counts it, and records any error by kind; null when it failed. */
    Rest.Answer call(Rest rest, String op, String method, String path, String body) {
        s.outcomes.op(op);
        try {
            Rest.Answer a = body != null && path.contains("_bulk") ? rest.bulk(path, body) : rest.call(method, path, body);
            if (a.status() >= 300) {
                s.outcomes.error(op, Outcomes.classify(a), method + " " + path + " " + Outcomes.abbreviate(String.valueOf(body), 300)
                    + "\n  -> " + a);
                return null;
            }
            return a;
        } catch (UncheckedIOException e) {
            s.outcomes.error(op, Outcomes.connection(e), method + " " + path + " -> " + e.getCause());
            return null;
        }
    }

    /** Records the shard failures of a search answered 200; true when there were none. */
    boolean allShards(String op, Rest.Answer a) {
        Number failed = a.at("_shards.failed");
        if (failed == null || failed.intValue() == 0) {
            return true;
        }
        Object failures = a.at("_shards.failures");
        s.outcomes.error(op + " (partial)", Outcomes.classify(500, failures), Outcomes.abbreviate(a.body(), 1500));
        return false;
    }

    // ---- indexing ------------------------------------------------------------------------------------------------

    private void indexLoop(ChaosState.Index index, int thread) {
        Random r = new Random(s.seed * 1_000_003L + thread);
        String prefix = index.fieldType() ? "f-" : "p-";
        long doc = 0;
        while (s.running()) {
            StringBuilder nd = new StringBuilder();
            Map<String, String> texts = new HashMap<>();
            for (int i = 0; i < BULK_DOCS; i++) {
                int base = r.nextInt(s.corpus.baseCount());
                String id = prefix + doc++;
                String text = s.corpus.variant(base, r);
                texts.put(id, text);
                nd.append(toJson(Map.of("index", Map.of("_id", id)))).append('\n');
                nd.append(toJson(Map.of("body", text, "base", base))).append('\n');
            }
            Rest.Answer a = call(s.rest, "bulk " + index.name(), "POST", "/" + index.name() + "/_bulk?timeout=10s", nd.toString());
            if (a != null) {
                List<Map<String, Object>> items = a.at("items");
                for (Map<String, Object> item : items) {
                    @SuppressWarnings("unchecked")
                    Map<String, Object> result = (Map<String, Object>) item.get("index");
                    int status = ((Number) result.get("status")).intValue();
                    String id = (String) result.get("_id");
                    s.outcomes.op("bulk item " + index.name());
                    if (status == 200 || status == 201) {
                        s.ack(index, id, texts.get(id));
                    } else {
                        s.outcomes.error("bulk item " + index.name(), Outcomes.classify(status, result.get("error")),
                            "item " + id + " -> " + toJson(result));
                    }
                }
            }
            pause(150);
        }
    }

    // ---- queries and folds -----------------------------------------------------------------------------------------

    private void queryLoop() {
        Random r = new Random(s.seed * 7919L + 3);
        while (s.running()) {
            ChaosState.Index index = ChaosState.INDICES.get(r.nextInt(2));
            switch (r.nextInt(5)) {
                case 0 -> hashQuery(s.rest, index, r);
                case 1 -> textQuery(s.rest, index, r);
                case 2 -> likeQuery(s.rest, index, r);
                case 3 -> kQuery(s.rest, index, r);
                default -> fold(s.rest, index, r, 100, 3);
            }
            pause(100);
        }
    }

    /** A hash query near a stored fingerprint; checks that every hit is within the radius and scored by its distance. */
    void hashQuery(Rest rest, ChaosState.Index index, Random r) {
        Long fp = someFingerprint(rest, index, r);
        long hash = fp == null ? r.nextLong() : flip(fp, r.nextInt(5), r);
        int radius = RADII[r.nextInt(RADII.length)];
        String op = "query hash " + index.name();
        Rest.Answer a = search(rest, op, index, Map.of("field", index.field(), "hash", hex(hash), "max_distance", radius), 100);
        if (a == null) {
            return;
        }
        List<Map<String, Object>> hits = a.at("hits.hits");
        for (Map<String, Object> hit : hits) {
            Long h = fingerprintOf(hit, index);
            int d = h == null ? -1 : Long.bitCount(h ^ hash);
            double score = ((Number) hit.get("_score")).doubleValue();
            if (h == null || d > radius || Math.abs(score - (64 - d) / 64.0) > 1e-6) {
                s.outcomes.error(op, new Outcomes.Failure(Outcomes.Category.SERVER_ERROR, "hit beyond the radius or misscored"),
                    "hash " + hex(hash) + " max_distance " + radius + " hit " + toJson(hit));
            }
        }
    }

    private void textQuery(Rest rest, ChaosState.Index index, Random r) {
        Map<String, Object> q = new HashMap<>(Map.of("field", index.field(), "text", s.corpus.variant(r.nextInt(s.corpus.baseCount()), r),
            "max_distance", RADII[r.nextInt(RADII.length)]));
        if (!index.fieldType()) {
            q.put("version", "v2");
        }
        search(rest, "query text " + index.name(), index, q, 50);
    }

    private void likeQuery(Rest rest, ChaosState.Index index, Random r) {
        ChaosState.Acked doc = s.ackedBefore(index, r, 5000);
        if (doc == null) {
            return;
        }
        search(rest, "query like " + index.name(), index, Map.of("field", index.field(), "like", Map.of("index", index.name(), "id",
            doc.id()), "max_distance", RADII[r.nextInt(RADII.length)]), 50);
    }

    private void kQuery(Rest rest, ChaosState.Index index, Random r) {
        Long fp = someFingerprint(rest, index, r);
        long hash = fp == null ? r.nextLong() : flip(fp, 8, r);
        search(rest, "query k " + index.name(), index, Map.of("field", index.field(), "hash", hex(hash), "k", 5), 5);
    }

    void fold(Rest rest, ChaosState.Index index, Random r, int window, int members) {
        String path = String.format(Locale.ROOT, "/%s/_simhash/fold?field=%s&max_distance=%d&window=%d&members=%d", index.name(),
            index.field(), RADII[r.nextInt(RADII.length)], window, members);
        Map<String, Object> body = Map.of("size", 20, "_source", false, "query", Map.of("term", Map.of("base", r.nextInt(s.corpus
            .baseCount()))));
        String op = "fold " + index.name() + (window > 100 ? " (large)" : "");
        Rest.Answer a = call(rest, op, "POST", path, toJson(body));
        if (a != null) {
            allShards(op, a);
        }
    }

    private Rest.Answer search(Rest rest, String op, ChaosState.Index index, Map<String, Object> simhash, int size) {
        Map<String, Object> body = Map.of("size", size, "_source", false, "docvalue_fields", List.of(index.docValue()), "query", Map.of(
            "simhash", simhash));
        Rest.Answer a = call(rest, op, "POST", "/" + index.name() + "/_search", toJson(body));
        return a != null && allShards(op, a) ? a : null;
    }

    private Long someFingerprint(Rest rest, ChaosState.Index index, Random r) {
        ChaosState.Acked doc = s.ackedBefore(index, r, 5000);
        if (doc == null) {
            return null;
        }
        Map<String, Object> body = Map.of("_source", false, "docvalue_fields", List.of(index.docValue()), "query", Map.of("ids", Map.of(
            "values", List.of(doc.id()))));
        Rest.Answer a = call(rest, "get fingerprint " + index.name(), "POST", "/" + index.name() + "/_search", toJson(body));
        if (a == null || !allShards("get fingerprint " + index.name(), a)) {
            return null;
        }
        List<Map<String, Object>> hits = a.at("hits.hits");
        return hits.isEmpty() ? null : fingerprintOf(hits.get(0), index);
    }

    // ---- reports and weights ---------------------------------------------------------------------------------------

    private void reportLoop() {
        Random r = new Random(s.seed * 31L + 11);
        int n = 0;
        pause(5000);
        while (s.running()) {
            ChaosState.Index index = ChaosState.INDICES.get(n % 2);
            backgroundReport(index);
            weights(r, n);
            n++;
            pause(2000);
        }
    }

    private void backgroundReport(ChaosState.Index index) {
        Map<String, Object> body = Map.of("field", index.field(), "max_distance", ChaosState.REPORT_DISTANCE, "write_group_id",
            ChaosState.GROUP_FIELD, "size", 1000, "max_members", 100);
        long started = System.nanoTime();
        Rest.Answer a = call(s.rest, "report start " + index.name(), "POST", "/" + index.name()
            + "/_simhash/duplicates?wait_for_completion=false", toJson(body));
        if (a == null) {
            return;
        }
        ReportRun run = new ReportRun(index, a.at("task"), a.at("id"), started);
        s.reports.add(run);
        awaitReport(run);
    }

    /** Polls a background report until it ends (or polling gives up), recording how it ended. */
    void awaitReport(ReportRun run) {
        long limit = System.nanoTime() + REPORT_POLL_LIMIT_NANOS;
        while (System.nanoTime() < limit && run.end == null) {
            Poll p = pollReport(run);
            switch (p.state()) {
                case GONE, INTERRUPTED -> {
                    run.end = ReportRun.End.LOST;
                    run.error = p.state() + " " + Outcomes.abbreviate(String.valueOf(p.error()), 600);
                }
                case FAILED -> {
                    Outcomes.Failure f = p.error() == null ? new Outcomes.Failure(Outcomes.Category.SERVER_ERROR, "failed without an error")
                        : Outcomes.classify(500, p.error());
                    run.end = ReportRun.End.FAILED;
                    run.errorCategory = f.category();
                    run.error = f.kind() + " " + Outcomes.abbreviate(toJson(p.error()), 600);
                }
                case COMPLETED -> {
                    run.end = ReportRun.End.COMPLETED;
                    run.response = p.response();
                }
                default -> pause(REPORT_POLL_MILLIS);
            }
        }
        if (run.end == null) {
            run.end = ReportRun.End.TIMED_OUT;
        }
        run.endedAt = System.nanoTime();
        if (s.reports.contains(run)) {
            // the rerun after the load is a check, not part of the load's figures
            s.outcomes.op("report " + run.end.name().toLowerCase(Locale.ROOT) + " " + run.index.name());
        }
    }

    /** What one poll of a background report said. */
    enum PollState { RUNNING, COMPLETED, FAILED, GONE, INTERRUPTED, NO_ANSWER }

    /** One poll's outcome: its state, and the stored response or error when there is one. */
    record Poll(PollState state, Map<String, Object> response, Object error) {}

    /** Whether the node serves {@code GET _simhash/duplicates/<id>}; null until the first poll tells. */
    private volatile Boolean reportEndpoint;

    /**
     * One poll of a background report, the one place that knows where stored reports are read: {@code GET
     * _simhash/duplicates/<id>} where the plugin has it (its reports are kept there, and {@code GET _tasks/<id>} only
     * shows running ones), otherwise {@code GET _tasks/<id>} (the task result stored in {@code .tasks}).
     */
    Poll pollReport(ReportRun run) {
        s.outcomes.op("report poll");
        // the report endpoint reads a report by its own id; the tasks API by the task's
        String path = Boolean.FALSE.equals(reportEndpoint) || run.reportId == null ? "/_tasks/" + run.taskId
            : "/_simhash/duplicates/" + run.reportId;
        Rest.Answer a;
        try {
            a = s.rest.get(path);
        } catch (UncheckedIOException e) {
            s.outcomes.error("report poll", Outcomes.connection(e), "GET " + path + " -> " + e.getCause());
            return new Poll(PollState.NO_ANSWER, null, null);
        }
        if (reportEndpoint == null) {
            boolean missing = a.status() == 400 && a.body().contains("no handler found");
            reportEndpoint = !missing;
            if (missing) {
                return pollReport(run);
            }
        }
        if (a.status() == 404) {
            return new Poll(PollState.GONE, null, a.json());
        }
        Object state = a.json().get("state");
        if (a.status() != 200 && state == null) {
            s.outcomes.error("report poll", Outcomes.classify(a), "GET " + path + " -> " + a);
            return new Poll(PollState.NO_ANSWER, null, null);
        }
        Map<String, Object> response = a.at("response");
        Object error = a.json().get("error");
        if (state != null) {
            return switch (String.valueOf(state)) {
                case "completed" -> new Poll(PollState.COMPLETED, response, null);
                case "failed" -> new Poll(PollState.FAILED, null, error);
                case "cancelled" -> new Poll(PollState.FAILED, null, Map.of("type", "report_cancelled_without_a_cancel", "body", a.body()));
                case "interrupted" -> new Poll(PollState.INTERRUPTED, null, a.json());
                default -> new Poll(PollState.RUNNING, null, null);
            };
        }
        if (!Boolean.TRUE.equals(a.at("completed"))) {
            return new Poll(PollState.RUNNING, null, null);
        }
        return error != null ? new Poll(PollState.FAILED, null, error) : new Poll(PollState.COMPLETED, response, null);
    }

    /**
     * Puts a table under a name no other put of the run uses. A 409 "already exists" then means the low-level client sent
     * the request again to another node after the first node died before answering (it retries on connection failures):
     * the first attempt created the table, which the GET that follows checks.
     */
    private Rest.Answer putWeights(String name, String body) {
        s.outcomes.op("weights put");
        String path = "/_simhash/weights/" + name;
        try {
            Rest.Answer a = s.rest.call("PUT", path, body);
            if (a.status() == 409 && a.body().contains("already exists")) {
                s.outcomes.op("weights put answered 409 after the client's retry");
                return a;
            }
            if (a.status() >= 300) {
                s.outcomes.error("weights put", Outcomes.classify(a), "PUT " + path + " " + body + "\n  -> " + a);
                return null;
            }
            return a;
        } catch (UncheckedIOException e) {
            s.outcomes.error("weights put", Outcomes.connection(e), "PUT " + path + " -> " + e.getCause());
            return null;
        }
    }

    private void weights(Random r, int n) {
        String name = "chaos-w-" + n;
        Map<String, Object> body = Map.of("index", ChaosState.FIELD.name(), "field", "body", "version", "v2", "sample_size", 1000,
            "seed", r.nextInt(1000), "max_features", 2000);
        Rest.Answer put = putWeights(name, toJson(body));
        Rest.Answer get = put == null ? null : call(s.rest, "weights get", "GET", "/_simhash/weights/" + name + "?size=5", null);
        if (put != null && get != null) {
            Object putCount = put.at("feature_count");
            Object getCount = get.at("feature_count");
            if (putCount == null || !putCount.equals(getCount)) {
                s.outcomes.error("weights get", new Outcomes.Failure(Outcomes.Category.SERVER_ERROR, "table differs from the one put"),
                    "PUT -> " + put + "\nGET -> " + get);
            }
        }
        // a put that failed may still have stored its table: delete it either way (404 when it did not)
        s.outcomes.op("weights delete");
        try {
            Rest.Answer del = s.rest.delete("/_simhash/weights/" + name);
            if (del.status() != 200 && del.status() != 404) {
                s.outcomes.error("weights delete", Outcomes.classify(del), "DELETE " + name + " -> " + del);
            }
        } catch (UncheckedIOException e) {
            s.outcomes.error("weights delete", Outcomes.connection(e), "DELETE " + name + " -> " + e.getCause());
        }
    }

    // ---- the squeezed node -----------------------------------------------------------------------------------------

    /** While a node runs with a small heap, sends it large requests it coordinates: they must answer or break, never OOM. */
    private void squeezeLoop() {
        Random r = new Random(s.seed * 131L + 5);
        while (s.running()) {
            int node = s.squeezed;
            if (node < 0 || !s.cluster.isRunning(node)) {
                pause(1000);
                continue;
            }
            Rest rest = s.node(node);
            ChaosState.Index index = ChaosState.INDICES.get(r.nextInt(2));
            switch (r.nextInt(3)) {
                case 0 -> {
                    String path = String.format(Locale.ROOT, "/%s/_simhash/fold?field=%s&max_distance=11&window=10000&members=100",
                        index.name(), index.field());
                    Rest.Answer a = call(rest, "squeeze fold " + index.name(), "POST", path, toJson(Map.of("size", 100, "_source", false,
                        "query", Map.of("match_all", Map.of()))));
                    if (a != null) {
                        allShards("squeeze fold " + index.name(), a);
                    }
                }
                case 1 -> search(rest, "squeeze k " + index.name(), index, Map.of("field", index.field(), "hash", hex(r.nextLong()), "k",
                    10000), 10000);
                default -> call(rest, "squeeze report " + index.name(), "POST", "/" + index.name() + "/_simhash/duplicates", toJson(Map.of(
                    "field", index.field(), "max_distance", 11, "size", 1000, "max_members", 10000)));
            }
            pause(500);
        }
    }

    // ---- helpers ---------------------------------------------------------------------------------------------------

    static Long fingerprintOf(Map<String, Object> hit, ChaosState.Index index) {
        Object fields = hit.get("fields");
        if (!(fields instanceof Map<?, ?> m) || !(m.get(index.docValueName()) instanceof List<?> l) || l.isEmpty()) {
            return null;
        }
        return ((Number) l.get(0)).longValue();
    }

    static String hex(long h) {
        return String.format(Locale.ROOT, "%016x", h);
    }

    static long flip(long h, int bits, Random r) {
        for (int i = 0; i < bits; i++) {
            h ^= 1L << r.nextInt(64);
        }
        return h;
    }

    static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
