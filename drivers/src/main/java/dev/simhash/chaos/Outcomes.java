package dev.simhash.chaos;

import dev.simhash.it.support.Rest;

import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts the chaos run's operations by kind and classifies every error: unavailability while a node is down (allowed),
 * rejections (429, allowed), and everything else (a failure of the run).
 */
final class Outcomes {

    /** How an error counts. */
    enum Category {
        /** A shard, node or master unavailable, or a connection lost: expected while a node is down. */
        UNAVAILABLE,
        /** 429: a circuit breaker or a full queue; allowed (that is how a node protects its heap). */
        REJECTED,
        /** No answer within the client's socket timeout (30 s): counted, allowed (a slow machine, not a wrong answer). */
        SLOW,
        /** Any other 4xx: a client or plugin defect. */
        CLIENT_ERROR,
        /** Any other 5xx: a plugin or Elasticsearch defect. */
        SERVER_ERROR
    }

    /** An error: its category and a kind such as {@code 503 unavailable_shards_exception}. */
    record Failure(Category category, String kind) {}

    /** Error types that mean "a copy or a node is not there right now". */
    static final Set<String> UNAVAILABILITY = Set.of("no_shard_available_action_exception", "unavailable_shards_exception",
        "node_disconnected_exception", "node_not_connected_exception", "node_closed_exception", "connect_transport_exception",
        "send_request_transport_exception", "master_not_discovered_exception", "no_node_available_exception",
        "shard_not_found_exception", "primary_missing_action_exception", "failed_node_exception", "receive_timeout_transport_exception",
        "not_master_exception", "coordination_state_rejected_exception", "process_cluster_event_timeout_exception",
        "index_shard_closed_exception", "illegal_index_shard_state_exception", "already_closed_exception",
        "search_context_missing_exception", "search_context_missing_nodes_exception", "shard_not_in_primary_mode_exception", "retry_on_replica_exception",
        "retry_on_primary_exception", "node_not_available_exception", "cluster_block_exception", "connect_exception",
        "elasticsearch_timeout_exception", "task_cancelled_exception");

    private final Map<String, AtomicLong> ops = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> errors = new ConcurrentHashMap<>();
    private final Map<String, Category> categories = new ConcurrentHashMap<>();
    private final Map<String, ConcurrentLinkedQueue<String>> samples = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> outsideDisturbance = new ConcurrentHashMap<>();
    private final Disturbances disturbances;

    Outcomes(Disturbances disturbances) {
        this.disturbances = disturbances;
    }

    void op(String kind) {
        ops.computeIfAbsent(kind, k -> new AtomicLong()).incrementAndGet();
    }

    /** Records an error of operation {@code op}; {@code sample} (request and answer) is kept for the first few of a kind. */
    void error(String op, Failure f, String sample) {
        String key = op + ": " + f.kind();
        errors.computeIfAbsent(key, k -> new AtomicLong()).incrementAndGet();
        categories.put(key, f.category());
        ConcurrentLinkedQueue<String> q = samples.computeIfAbsent(key, k -> new ConcurrentLinkedQueue<>());
        if (q.size() < 3) {
            q.add(abbreviate(sample, 1500));
        }
        if (f.category() == Category.UNAVAILABLE && !disturbances.near(System.nanoTime())) {
            outsideDisturbance.computeIfAbsent(key, k -> new AtomicLong()).incrementAndGet();
        }
    }

    Map<String, Long> ops() {
        return snapshot(ops);
    }

    Map<String, Long> errors() {
        return snapshot(errors);
    }

    Category category(String key) {
        return categories.get(key);
    }

    Collection<String> samples(String key) {
        return samples.getOrDefault(key, new ConcurrentLinkedQueue<>());
    }

    Map<String, Long> unavailableOutsideDisturbance() {
        return snapshot(outsideDisturbance);
    }

    long count(Category c) {
        return errors().entrySet().stream().filter(e -> categories.get(e.getKey()) == c).mapToLong(Map.Entry::getValue).sum();
    }

    private static Map<String, Long> snapshot(Map<String, AtomicLong> m) {
        Map<String, Long> out = new TreeMap<>();
        m.forEach((k, v) -> out.put(k, v.get()));
        return out;
    }

    /** Classifies an HTTP answer that is not a success (status >= 300). */
    static Failure classify(Rest.Answer a) {
        Object error = a.json().get("error");
        return classify(a.status(), error == null ? a.json() : error);
    }

    /** Classifies an error object (of a response, a bulk item, a shard failure or a stored task error) with its status. */
    static Failure classify(int status, Object error) {
        List<String> types = new ArrayList<>();
        collectTypes(error, types);
        String first = types.isEmpty() ? (error instanceof String s ? s : "no error type") : types.get(0);
        for (String t : types) {
            if (UNAVAILABILITY.contains(t)) {
                return new Failure(Category.UNAVAILABLE, status + " " + (t.equals(first) ? t : first + " / " + t));
            }
        }
        String reason = String.valueOf(error);
        if (reason.contains("disconnected") || reason.contains("no master")
            || reason.contains("state not recovered")) {
            return new Failure(Category.UNAVAILABLE, status + " " + first);
        }
        if (status == 429) {
            return new Failure(Category.REJECTED, status + " " + first);
        }
        return new Failure(status >= 500 ? Category.SERVER_ERROR : Category.CLIENT_ERROR, status + " " + first);
    }

    /** A request that got no HTTP answer (connection refused or reset while a node went down). */
    static Failure connection(Exception e) {
        Throwable c = e.getCause() == null ? e : e.getCause();
        return new Failure(c instanceof SocketTimeoutException ? Category.SLOW : Category.UNAVAILABLE, "no answer: " + c.getClass()
            .getSimpleName());
    }

    private static void collectTypes(Object o, List<String> out) {
        if (o instanceof Map<?, ?> m) {
            if (m.get("type") instanceof String t) {
                out.add(t);
            }
            for (Object v : m.values()) {
                collectTypes(v, out);
            }
        } else if (o instanceof List<?> l) {
            for (Object v : l) {
                collectTypes(v, out);
            }
        }
    }

    static String abbreviate(String s, int max) {
        return s.length() > max ? s.substring(0, max) + "..." : s;
    }
}
