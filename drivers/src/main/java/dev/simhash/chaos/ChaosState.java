package dev.simhash.chaos;

import dev.simhash.it.support.EsCluster;
import dev.simhash.it.support.Rest;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/** What the chaos run's threads share: the cluster, the indices, the acknowledged documents, kills and reports. */
final class ChaosState {

    /** One target index: its name, the fingerprint field queries name, and whether that is the field type or the processor's object. */
    record Index(String name, String field, boolean fieldType) {
        /** The docvalue_fields entry that returns the fingerprint as a signed long. */
        Object docValue() {
            return fieldType ? Map.of("field", field, "format", "long") : field + ".hash";
        }

        String docValueName() {
            return fieldType ? field : field + ".hash";
        }
    }

    /** A kill of a node: when, and when the cluster had it back (all nodes, at least yellow); 0 while not yet. */
    static final class Kill {
        final int node;
        final long killedAt;
        final String heapAfter;
        volatile long rejoinedAt;

        Kill(int node, long killedAt, String heapAfter) {
            this.node = node;
            this.killedAt = killedAt;
            this.heapAfter = heapAfter;
        }
    }

    /** An acknowledged document: its id and text, and when it was acknowledged (nanoTime). */
    record Acked(String id, String text, long at) {}

    static final Index FIELD = new Index("chaos-field", "body.simhash", true);
    static final Index PIPE = new Index("chaos-pipe", "simhash", false);
    static final List<Index> INDICES = List.of(FIELD, PIPE);
    static final String PIPELINE = "chaos-fp";
    static final String GROUP_FIELD = "dup_group";
    static final int REPORT_DISTANCE = 6;

    final EsCluster cluster;
    final Rest rest;
    private final Rest[] perNode;
    final long seed;
    final ChaosCorpus corpus;
    final Disturbances disturbances = new Disturbances();
    final Outcomes outcomes = new Outcomes(disturbances);
    final Map<Index, Map<String, Acked>> acked = Map.of(FIELD, new ConcurrentHashMap<>(), PIPE, new ConcurrentHashMap<>());
    private final Map<Index, List<Acked>> ackOrder = Map.of(FIELD, Collections.synchronizedList(new ArrayList<>()), PIPE,
        Collections.synchronizedList(new ArrayList<>()));
    final List<Kill> kills = new CopyOnWriteArrayList<>();
    final List<ReportRun> reports = new CopyOnWriteArrayList<>();
    final List<String> unexpectedDeaths = new CopyOnWriteArrayList<>();
    final Map<String, Integer> nodeIdToIndex = new ConcurrentHashMap<>();
    final long startedAt = System.nanoTime();
    final long deadline;
    volatile boolean stop;
    /** The node whose heap is squeezed right now, or -1. */
    volatile int squeezed = -1;

    ChaosState(EsCluster cluster, long seed, long durationNanos) {
        this.cluster = cluster;
        this.rest = cluster.rest();
        this.perNode = new Rest[cluster.size()];
        for (int i = 0; i < perNode.length; i++) {
            perNode[i] = cluster.rest(i);
        }
        this.seed = seed;
        this.corpus = new ChaosCorpus(seed, 400);
        this.deadline = startedAt + durationNanos;
    }

    /** A client that sends every request to node {@code i} only (ports stay the same across restarts). */
    Rest node(int i) {
        return perNode[i];
    }

    boolean running() {
        return !stop && System.nanoTime() < deadline;
    }

    void ack(Index index, String id, String text) {
        Acked a = new Acked(id, text, System.nanoTime());
        acked.get(index).put(id, a);
        ackOrder.get(index).add(a);
    }

    /** A random document acknowledged at least {@code ageMillis} ago (so a refresh made it searchable), or null. */
    Acked ackedBefore(Index index, Random r, long ageMillis) {
        List<Acked> l = ackOrder.get(index);
        long cut = System.nanoTime() - ageMillis * 1_000_000L;
        synchronized (l) {
            int n = l.size();
            while (n > 0 && l.get(n - 1).at() > cut) {
                n--;
            }
            return n == 0 ? null : l.get(r.nextInt(n));
        }
    }

    /** True when node {@code node} was killed between the two times (nanoTime). */
    boolean killedBetween(int node, long from, long to) {
        return kills.stream().anyMatch(k -> k.node == node && k.killedAt >= from && k.killedAt <= to);
    }

    double seconds(long nanos) {
        return (nanos - startedAt) / 1e9;
    }
}
