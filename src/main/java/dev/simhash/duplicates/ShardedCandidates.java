package dev.simhash.duplicates;

import dev.simhash.breaker.RequestMemory;
import dev.simhash.compat.CompatIndices;
import dev.simhash.core.SketchBands;
import dev.simhash.request.CallerSteps;
import dev.simhash.threshold.Verification;

import org.elasticsearch.action.ActionListener;
import org.elasticsearch.client.internal.Client;
import org.elasticsearch.cluster.metadata.AliasMetadata;
import org.elasticsearch.cluster.metadata.IndexAbstraction;
import org.elasticsearch.cluster.metadata.IndexMetadata;
import org.elasticsearch.common.regex.Regex;
import org.elasticsearch.index.Index;
import org.elasticsearch.core.CheckedConsumer;
import org.elasticsearch.common.util.concurrent.ThreadContext;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * The report's reading at the verified default, on the data nodes: only the documents that share a band value with
 * another document of the report reach this node ({@link ShardBandsAction} per shard, on a copy's node). With one shard,
 * the shard finds them itself. With several, the band values held in two or more shards are found first, a hash partition
 * at a time (each shard sends that partition of its distinct values, this node keeps the repeated ones), and each shard
 * is then given them. Every other document shares no band value with any: it is a group of its own, counted only. A
 * report over one shard leaves the grouping to it too: the shard sends the members of the page's groups, without sketches,
 * and its totals.
 */
final class ShardedCandidates {

    /** Band values per partition: the partitions are sized so that one round holds about this many values. */
    static final long VALUES_PER_ROUND = 1 << 22;

    /** One shard of a concrete index. */
    record Shard(String index, int shard) {}

    /** Takes one shard's candidates (or, for a report over one shard, its groups: {@link ShardBandsResponse#grouped}). */
    interface Sink {
        void accept(String index, ShardBandsResponse candidates) throws Exception;
    }

    /**
     * The shards of {@code concrete} when the report can read through them: the documents of those shards are then
     * exactly those a search of {@code expressions} sees. That holds when every expression names indices or data streams,
     * or aliases without a filter or search routing (a wildcard matches no alias at all), and every concrete index is in
     * this cluster's metadata and maps no nested objects. Else null.
     */
    static List<Shard> shardsOf(CompatIndices indices, String[] expressions, String[] concrete) {
        Map<String, IndexAbstraction> lookup = indices.lookup();
        for (String expression : expressions) {
            if (expression.startsWith("<") || expression.contains(":")) {
                return null; // date math, another cluster
            }
            String name = expression.startsWith("-") ? expression.substring(1) : expression;
            if (name.equals("_all") || Regex.isSimpleMatchPattern(name)) {
                String pattern = name.equals("_all") ? "*" : name;
                for (IndexAbstraction a : lookup.values()) {
                    if (a.getType() == IndexAbstraction.Type.ALIAS && Regex.simpleMatch(pattern, a.getName())) {
                        return null;
                    }
                }
            } else if (plain(indices, lookup.get(name)) == false) {
                return null;
            }
        }
        List<Shard> shards = new ArrayList<>();
        for (String index : concrete) {
            IndexMetadata metadata = indices.index(index);
            if (metadata == null || (metadata.mapping() != null && mapsNested(metadata.mapping().sourceAsMap()))) {
                return null;
            }
            for (int i = 0; i < metadata.getNumberOfShards(); i++) {
                shards.add(new Shard(index, i));
            }
        }
        return shards;
    }

    /** Whether a search of {@code a} sees all of its indices' documents: no alias filter, no alias search routing. */
    private static boolean plain(CompatIndices indices, IndexAbstraction a) {
        if (a == null || a.getType() != IndexAbstraction.Type.ALIAS) {
            return true; // an index, a data stream; or a name the search would not resolve either
        }
        if (a.isDataStreamRelated()) {
            return false;
        }
        for (Index index : a.getIndices()) {
            IndexMetadata metadata = indices.index(index.getName());
            AliasMetadata alias = metadata == null ? null : metadata.getAliases().get(a.getName());
            if (alias == null || alias.filteringRequired() || alias.searchRouting() != null) {
                return false;
            }
        }
        return true;
    }

    private static boolean mapsNested(Object mapping) {
        if (mapping instanceof Map<?, ?> map) {
            if ("nested".equals(map.get("type"))) {
                return true;
            }
            for (Object v : map.values()) {
                if (mapsNested(v)) {
                    return true;
                }
            }
        }
        return false;
    }

    private final Client client;
    private final ThreadContext threadContext;
    private final List<Shard> shards;
    private final String field;
    private final Verification verification;
    private final RequestMemory memory;
    private final Runnable checkCancelled;
    private final Sink sink;
    private final Consumer<Exception> fail;
    private final int from;
    private final int size;

    /**
     * @param from   the report's page is groups [from, from + size) in report order: a shard that groups (a report over it
     *               alone) sends only their members
     * @param sink   takes each shard's candidates (one call at a time)
     * @param fail   takes the failure that ends the scan
     */
    ShardedCandidates(Client client, ThreadContext threadContext, List<Shard> shards, String field, Verification verification,
                      int from, int size, RequestMemory memory, Runnable checkCancelled, Sink sink, Consumer<Exception> fail) {
        this.verification = verification;
        this.from = from;
        this.size = size;
        this.client = client;
        this.threadContext = threadContext;
        this.shards = shards;
        this.field = field;
        this.memory = memory;
        this.checkCancelled = checkCancelled;
        this.sink = sink;
        this.fail = fail;
    }

    /** Reads every shard's candidates into the sink, then gives {@code done} the number of documents the report covers. */
    void run(Consumer<Long> done) {
        if (shards.isEmpty()) {
            done.accept(0L);
            return;
        }
        if (shards.size() == 1) {
            // one shard holds every candidate pair: it groups them itself and sends only the page's groups' members
            Shard s = shards.get(0);
            client.execute(ShardBandsAction.INSTANCE, ShardBandsRequest.groups(s.index(), s.shard(), field, verification, from, size),
                step((ShardBandsResponse r) -> {
                    sink.accept(s.index(), r);
                    done.accept(r.docs());
                }));
            return;
        }
        all(s -> ShardBandsRequest.count(s.index(), s.shard(), field), counts -> {
            long docs = 0;
            for (ShardBandsResponse r : counts) {
                docs += r.docs();
            }
            long values = docs * SketchBands.BANDS;
            int partitions = (int) Math.max(1, Math.min(1 << 16, (values + VALUES_PER_ROUND - 1) / VALUES_PER_ROUND));
            round(0, partitions, new SharedValues(), done);
        });
    }

    /** The band values held in two or more shards, as they are found, charged. */
    private final class SharedValues {
        long[] values = new long[0];
        int size;

        /** Adds each value that {@code sorted} holds more than once, once. */
        void addRepeated(long[] sorted) {
            ShardBandScan.forEachRepeated(sorted, sorted.length, this::add);
        }

        private void add(long v) {
            if (size == values.length) {
                int grown = Math.max(1024, size * 2);
                memory.add((long) (grown - values.length) * Long.BYTES, "band values held in several shards");
                values = Arrays.copyOf(values, grown);
            }
            values[size++] = v;
        }

        long[] sorted() {
            long[] out = Arrays.copyOf(values, size);
            Arrays.sort(out); // partitions are disjoint: each is sorted, their concatenation is not
            return out;
        }
    }

    private void round(int partition, int partitions, SharedValues shared, Consumer<Long> done) {
        if (partition == partitions) {
            long[] sorted = shared.sorted();
            candidates(sorted, done);
            return;
        }
        checkCancelled.run();
        all(s -> ShardBandsRequest.values(s.index(), s.shard(), field, partition, partitions), responses -> {
            long total = 0;
            for (ShardBandsResponse r : responses) {
                total += r.values().length;
            }
            long bytes = total * Long.BYTES * 2;
            memory.add(bytes, "band values of a partition");
            try {
                long[] merged = new long[(int) total];
                int at = 0;
                for (ShardBandsResponse r : responses) {
                    System.arraycopy(r.values(), 0, merged, at, r.values().length);
                    at += r.values().length;
                }
                responses.clear();
                // each shard's values are distinct: a value twice in the merge is held in two shards
                Arrays.sort(merged);
                shared.addRepeated(merged);
            } finally {
                memory.release(bytes);
            }
            round(partition + 1, partitions, shared, done);
        });
    }

    private void candidates(long[] shared, Consumer<Long> done) {
        checkCancelled.run();
        AtomicInteger pending = new AtomicInteger(shards.size());
        long[] docs = new long[1];
        for (Shard s : shards) {
            client.execute(ShardBandsAction.INSTANCE, ShardBandsRequest.candidates(s.index(), s.shard(), field, shared),
                step((ShardBandsResponse r) -> {
                    synchronized (docs) {
                        docs[0] += r.docs();
                        sink.accept(s.index(), r);
                    }
                    if (pending.decrementAndGet() == 0) {
                        done.accept(docs[0]);
                    }
                }));
        }
    }

    private interface RequestOf {
        ShardBandsRequest of(Shard shard);
    }

    /** Sends a request to every shard; {@code then} gets the responses once all have answered (a failure fails the scan). */
    private void all(RequestOf request, CheckedConsumer<List<ShardBandsResponse>, Exception> then) {
        List<ShardBandsResponse> responses = new ArrayList<>(shards.size());
        AtomicInteger pending = new AtomicInteger(shards.size());
        for (Shard s : shards) {
            client.execute(ShardBandsAction.INSTANCE, request.of(s), step((ShardBandsResponse r) -> {
                synchronized (responses) {
                    responses.add(r);
                }
                if (pending.decrementAndGet() == 0) {
                    then.accept(responses);
                }
            }));
        }
    }

    private <T> ActionListener<T> step(CheckedConsumer<T, Exception> step) {
        return CallerSteps.step(threadContext, step, fail);
    }
}
