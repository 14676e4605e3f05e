package dev.simhash.bench;

import dev.simhash.collapse.FingerprintTable;
import dev.simhash.collapse.NearDuplicateComponents;
import dev.simhash.core.SimHash;
import dev.simhash.it.support.EsCluster;
import dev.simhash.it.support.RealNodes;
import dev.simhash.it.support.Rest;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * Benchmark of the near-duplicate report ({@code ./run bench-report [docs] [radii] [heap]}): starts
 * a real node with the plugin, bulk-loads {@code docs} fingerprints in their stored form (no
 * pipeline: 90% random, 10% in planted groups of 5 within 3 bits of a base), then times
 * {@code _simhash/duplicates} for each radius. Not a test; prints a table.
 */
public final class ReportBench {

    static final String INDEX = "bench-report";
    static final int GROUP_SIZE = 5;
    static final int BULK_DOCS = 20_000;

    private ReportBench() {}

    public static void main(String[] args) throws Exception {
        int docs = args.length > 0 ? Integer.parseInt(args[0].replace("_", "")) : 1_000_000;
        List<Integer> radii = new ArrayList<>();
        for (String r : (args.length > 1 ? args[1] : "3,7,11").split(",")) {
            radii.add(Integer.parseInt(r.trim()));
        }
        String heap = args.length > 2 ? args[2] : "2g";
        System.out.printf(Locale.ROOT, "[bench] %,d fingerprints, radii %s, node heap %s, %d cores%n", docs, radii, heap,
            Runtime.getRuntime().availableProcessors());
        measureHeap(docs, radii.get(0));
        try (EsCluster cluster = EsCluster.builder(RealNodes.distribution(), RealNodes.workDir().resolve("bench")).name("bench")
            .heap(heap).build().start()) {
            Rest rest = cluster.rest();
            int planted = load(rest, docs);
            System.out.printf(Locale.ROOT, "[bench] planted groups: %,d (of %d documents within 3 bits of a base)%n", planted, GROUP_SIZE);
            System.out.println("[bench] r    run  took_ms  read_ms  group_ms  groups  in_groups");
            for (int r : radii) {
                for (int run = 1; run <= 2; run++) {
                    long start = System.nanoTime();
                    Rest.Answer a = rest.ok("POST", "/" + INDEX + "/_simhash/duplicates",
                        "{\"field\": \"simhash\", \"max_distance\": " + r + ", \"size\": 3}");
                    long wall = (System.nanoTime() - start) / 1_000_000;
                    System.out.printf(Locale.ROOT, "[bench] %-4d %-4d %7d  %7d  %8d  %6d  %9d   (client wall %d ms, %,d docs)%n", r, run,
                        num(a, "took_ms"), num(a, "phases_ms.read"), num(a, "phases_ms.group"), num(a, "groups_total"),
                        num(a, "duplicates_total"), wall, num(a, "total_docs"));
                }
            }
        }
    }

    static long num(Rest.Answer a, String path) {
        Object v = a.at(path);
        return v == null ? -1 : ((Number) v).longValue();
    }

    /** Loads the corpus; returns the number of planted groups. */
    static int load(Rest rest, int docs) {
        rest.delete("/" + INDEX);
        rest.ok("PUT", "/" + INDEX, """
            {"settings": {"number_of_shards": 3, "number_of_replicas": 0, "refresh_interval": "-1"},
             "mappings": {"properties": {"simhash": {"properties": {"hash": {"type": "long"},
               "b0": {"type": "keyword", "doc_values": false}, "b1": {"type": "keyword", "doc_values": false},
               "b2": {"type": "keyword", "doc_values": false}, "b3": {"type": "keyword", "doc_values": false}}}}}}""");
        Random random = new Random(2026);
        int groups = docs / 10 / GROUP_SIZE;
        long start = System.nanoTime();
        StringBuilder ndjson = new StringBuilder(BULK_DOCS * 130);
        long base = 0;
        for (int i = 0; i < docs; i++) {
            long h;
            int inGroups = groups * GROUP_SIZE;
            if (i < inGroups) {
                // consecutive documents form a group: a base and near copies of it
                if (i % GROUP_SIZE == 0) {
                    base = random.nextLong();
                    h = base;
                } else {
                    h = flip(random, base, 1 + random.nextInt(3));
                }
            } else {
                h = random.nextLong();
            }
            ndjson.append("{\"index\":{\"_id\":\"d").append(i).append("\"}}\n{\"simhash\":{\"hash\":").append(h);
            for (int j = 0; j < SimHash.BLOCKS; j++) {
                ndjson.append(",\"b").append(j).append("\":\"").append(SimHash.blockTerm(SimHash.block(h, j))).append('"');
            }
            ndjson.append("}}\n");
            if ((i + 1) % BULK_DOCS == 0 || i == docs - 1) {
                Rest.Answer a = rest.bulk("/" + INDEX + "/_bulk", ndjson.toString());
                if (a.status() != 200 || !Boolean.FALSE.equals(a.at("errors"))) {
                    throw new IllegalStateException("bulk failed: " + a.body().substring(0, Math.min(500, a.body().length())));
                }
                ndjson.setLength(0);
                if ((i + 1) % 200_000 == 0) {
                    System.out.printf(Locale.ROOT, "[bench] loaded %,d documents in %d s%n", i + 1, (System.nanoTime() - start) / 1_000_000_000);
                }
            }
        }
        rest.ok("PUT", "/" + INDEX + "/_settings", "{\"index\": {\"refresh_interval\": \"1s\"}}");
        rest.ok("POST", "/" + INDEX + "/_refresh", null);
        rest.ok("POST", "/" + INDEX + "/_forcemerge?max_num_segments=1", null);
        System.out.printf(Locale.ROOT, "[bench] loaded, refreshed and merged %,d documents in %d s%n", docs,
            (System.nanoTime() - start) / 1_000_000_000);
        return groups;
    }

    static long flip(Random r, long h, int bits) {
        long mask = 0;
        while (Long.bitCount(mask) < bits) {
            mask |= 1L << r.nextInt(64);
        }
        return h ^ mask;
    }

    /**
     * The heap the report holds for {@code docs} documents, measured in this JVM with the plugin's own classes: the
     * fingerprint table (ids like the benchmark's) and the peak live data while grouping, each after a full GC.
     */
    static void measureHeap(int docs, int r) {
        Random random = new Random(7);
        long before = usedAfterGc();
        FingerprintTable table = new FingerprintTable();
        for (int i = 0; i < docs; i++) {
            table.add(INDEX, "d" + i, random.nextLong(), null);
        }
        long tableBytes = usedAfterGc() - before;
        long[] peak = { 0 };
        int[] calls = { 0 };
        long start = System.nanoTime();
        NearDuplicateComponents c = NearDuplicateComponents.find(table.hashes(), r, () -> {
            // sampled: a GC per check would dominate the run
            if (calls[0]++ < 4 || calls[0] % 64 == 0) {
                peak[0] = Math.max(peak[0], usedAfterGc() - before);
            }
        });
        long groupMillis = (System.nanoTime() - start) / 1_000_000;
        // the table must stay reachable during the measurement, as it does in the report
        System.out.printf(Locale.ROOT, "[bench] heap for %,d documents (ids \"d0\"..\"d%d\"): table %d MB (%d bytes/doc); live while grouping, "
                + "table included: %d MB (%d bytes/doc); in-process grouping r=%d: %d ms incl. sampling GCs, %,d components%n",
            table.size(), docs - 1, tableBytes >> 20, tableBytes / docs, peak[0] >> 20, peak[0] / docs, r, groupMillis, c.componentCount());
    }

    static long usedAfterGc() {
        Runtime rt = Runtime.getRuntime();
        for (int i = 0; i < 2; i++) {
            System.gc();
        }
        return rt.totalMemory() - rt.freeMemory();
    }
}
