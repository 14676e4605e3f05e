package dev.simhash.bench;

import dev.simhash.it.support.RealNodes;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** Writes report.md and the PNG plots of one run. */
final class Report {

    private final Bench.Options o;
    private final Machine machine;
    private final String started;
    List<Corpora.Corpus> corpora = List.of();
    FingerprintBench fingerprint;
    AccumulatorBench accumulator;
    QualityBench quality;
    LatencyBench latency;
    VerifiedBench verified;
    IndexingBench indexing;
    FieldIndexingBench fieldIndexing;
    DedupIngestBench dedupIngest;
    DefaultReportBench defaultReport;
    ClusterReportBench clusterReport;
    FoldWorkBench foldWork;
    FieldWorkBench fieldWork;

    /** The plain (no fingerprint) result of a corpus in the indexing section. */
    private IndexingBench.Result plainOf(String corpus) {
        return indexing.results.stream().filter(r -> r.corpus().equals(corpus) && r.variant().equals(IndexingBench.PLAIN)).findFirst()
            .orElse(null);
    }

    /** Whether a corpus of the bench is Chinese (by its name). */
    private static boolean isChinese(String corpus) {
        return corpus.toLowerCase(java.util.Locale.ROOT).contains("zh") || corpus.toLowerCase(java.util.Locale.ROOT).contains("chinese");
    }
    double seconds;
    double waitedSeconds;
    double loadMax;
    String loadEnd;
    String loadStart = Machine.loadAverageNow();
    String nodeVersion;

    Report(Bench.Options o, Machine machine, String started) {
        this.o = o;
        this.machine = machine;
        this.started = started;
    }

    private static String f(String fmt, Object... args) {
        return String.format(Locale.ROOT, fmt, args);
    }

    private static String ms(double v) {
        if (Double.isNaN(v)) {
            return "n/a";
        }
        return v >= 100 ? f("%.0f", v) : v >= 10 ? f("%.1f", v) : f("%.2f", v);
    }

    private static String num(double v) {
        return Double.isNaN(v) ? "n/a" : f("%.3f", v);
    }

    Optional<LatencyBench.Result> find(String dataset, int size, int r, LatencyBench.Method m) {
        if (latency == null) {
            return Optional.empty();
        }
        return latency.results.stream().filter(x -> x.dataset().equals(dataset) && x.size() == size && x.radius() == r && x.method() == m
            && !Double.isNaN(x.p50())).findFirst();
    }

    /** The headline rows: target, measured, met. */
    List<String[]> headline() {
        List<String[]> rows = new ArrayList<>();
        if (latency != null && !latency.results.isEmpty()) {
            int size = latency.results.stream().filter(r -> r.dataset().equals("synthetic")).mapToInt(LatencyBench.Result::size).max().orElse(0);
            String at = f("%,d docs", size);
            Optional<LatencyBench.Result> s3 = find("synthetic", size, 3, LatencyBench.Method.SIMHASH);
            for (int r : new int[] { 3, 7, 11 }) {
                double target = r == 3 ? 100 : r == 7 ? 10 : 3;
                Optional<LatencyBench.Result> s = find("synthetic", size, r, LatencyBench.Method.SIMHASH);
                Optional<LatencyBench.Result> scan = find("synthetic", size, r, LatencyBench.Method.SCRIPT);
                if (s.isPresent() && scan.isPresent()) {
                    double ratio = scan.get().p50() / s.get().p50();
                    rows.add(new String[] { f("k = %d: >= %.0fx faster than the linear scan (p50)", r, target),
                        f("%.0fx (%s ms vs %s ms, %s)", ratio, ms(s.get().p50()), ms(scan.get().p50()), at), ratio >= target ? "met" : "missed" });
                } else if (s.isPresent()) {
                    rows.add(new String[] { f("k = %d: >= %.0fx faster than the linear scan", r, target), "linear scan not measured: "
                        + (latency.scriptProblem == null ? "?" : "no simhash script engine in this build"), "not measured" });
                }
            }
            if (s3.isPresent()) {
                rows.add(new String[] { "k = 3 at 1M docs: p50 <= 5 ms on one node", f("%s ms (p99 %s ms, %s)", ms(s3.get().p50()), ms(s3.get().p99()), at),
                    s3.get().p50() <= 5 ? (size >= 1_000_000 ? "met" : "met (below 1M)") : "missed" });
                Optional<LatencyBench.Result> k100 = find("synthetic", size, 3, LatencyBench.Method.KNN_100);
                Optional<LatencyBench.Result> k1000 = find("synthetic", size, 3, LatencyBench.Method.KNN_1000);
                Optional<LatencyBench.Result> exactKnn = k100.filter(k -> k.recall() >= 1.0).or(() -> k1000.filter(k -> k.recall() >= 1.0));
                Optional<LatencyBench.Result> cmp = exactKnn.or(() -> k1000);
                if (cmp.isPresent()) {
                    LatencyBench.Result k = cmp.get();
                    rows.add(new String[] { "k = 3: faster than or equal to knn on bit vectors at recall 1.0",
                        f("%s ms vs knn %s ms (num_candidates %s, recall %.4f; num_candidates 100: recall %s)", ms(s3.get().p50()), ms(k.p50()),
                            k.method() == LatencyBench.Method.KNN_100 ? "100" : "1000", k.recall(), k100.map(x -> f("%.4f", x.recall())).orElse("n/a")),
                        s3.get().p50() <= k.p50() ? (k.recall() >= 1.0 ? "met" : "met (knn below recall 1.0)") : "missed" });
                }
            }
        }
        if (verified != null) {
            for (VerifiedBench.Storage st : verified.storage) {
                VerifiedBench.Result ids = verified.result(st.size(), VerifiedBench.Method.IDS);
                VerifiedBench.Result v = verified.result(st.size(), VerifiedBench.Method.VERIFIED);
                VerifiedBench.Result t = verified.result(st.size(), VerifiedBench.Method.TEXT);
                VerifiedBench.Result scan = verified.result(st.size(), VerifiedBench.Method.SCAN);
                if (ids != null && v != null && t != null && scan != null) {
                    double fixed = v.p50() / ids.p50();
                    double textFixed = t.p50() / ids.p50();
                    rows.add(new String[] { f("verified text p50 within 1.3x of ids (%,d texts)", st.size()),
                        f("%.2fx (%s ms vs %s ms)", textFixed, ms(t.p50()), ms(ids.p50())), textFixed <= 1.3 ? "met" : "missed" });
                    rows.add(new String[] { f("verified like p50 within 1.6x of ids (%,d texts)", st.size()),
                        f("%.2fx (%s ms vs %s ms)", fixed, ms(v.p50()), ms(ids.p50())), fixed <= 1.6 ? "met" : "missed" });
                    for (VerifiedBench.Result r : List.of(t, v)) {
                        double faster = scan.p50() / r.p50();
                        rows.add(new String[] { f("verified %s >= 20x faster than the linear scan (p50, %,d texts)",
                            r == t ? "text" : "like", st.size()), f("%.1fx (%s ms vs %s ms)", faster, ms(r.p50()), ms(scan.p50())),
                            faster >= 20 ? "met" : "missed" });
                    }
                }
            }
        }
        if (dedupIngest != null) {
            for (DedupIngestBench.Result r : dedupIngest.results) {
                rows.add(new String[] { f("ingest through simhash_dedup (tag) >= 0.5x the same pipeline without it (%s, index of %,d)",
                    r.corpus(), r.baseDocs()), f("%.2fx (lookup p50 %s ms)", r.ratio(), ms(r.lookupP50Ms())),
                    r.ratio() >= 0.5 ? (r.baseDocs() >= 1_000_000 ? "met" : "met (below 1M)") : "missed" });
            }
        }
        if (defaultReport != null) {
            List<Integer> sizes = defaultReport.sizes();
            for (int i = 1; i < sizes.size(); i++) {
                int a = sizes.get(i - 1);
                int b = sizes.get(i);
                double docs = b / (double) a;
                double time = defaultReport.bestDefault(b) / (double) defaultReport.bestDefault(a);
                double allowed = 4.5 / 4 * docs;
                rows.add(new String[] { f("default report: %.1fx the documents (%,d -> %,d) costs at most %.2fx the time", docs, a, b, allowed),
                    f("%.2fx (%,d -> %,d ms)", time, defaultReport.bestDefault(a), defaultReport.bestDefault(b)),
                    time <= allowed ? (b >= 4_000_000 ? "met" : "met (below 4M)") : "missed" });
            }
        }
        if (foldWork != null) {
            for (FoldWorkBench.Result r : foldWork.results) {
                double ratio = r.bandsMicros() / r.radiusMicros();
                rows.add(new String[] { f("fold at the default by bands no slower than by the radius (window %,d)", r.window()),
                    f("%.2fx (%s vs %s µs)", ratio, f("%,.1f", r.bandsMicros()), f("%,.1f", r.radiusMicros())), ratio <= 1 ? "met" : "missed" });
            }
        }
        if (fingerprint != null) {
            for (String lang : List.of("en", "zh")) {
                Optional<FingerprintBench.Result> ours = fingerprint.results.stream().filter(r -> r.corpus().equals(lang) && r.name().startsWith("ours: FeatureBag")).findFirst();
                Optional<FingerprintBench.Result> h4j = fingerprint.results.stream().filter(r -> r.corpus().equals(lang) && r.name().startsWith("hash4j simHash(64) (XXH3")).findFirst();
                if (ours.isPresent() && h4j.isPresent()) {
                    double ratio = ours.get().docsPerSec() / h4j.get().docsPerSec();
                    rows.add(new String[] { "fingerprinting (" + lang + ") at least as fast as hash4j simHash on the same features",
                        f("%.2fx (%.1f vs %.1f MB/s of features)", ratio, ours.get().mbPerSec(), h4j.get().mbPerSec()), ratio >= 1 ? "met" : "missed" });
                }
            }
        }
        if (latency != null) {
            for (LatencyBench.Storage st : latency.storage) {
                double object = st.simhashFieldBytes() / (double) st.size();
                double field = st.fieldTypeFieldBytes() / (double) st.size();
                rows.add(new String[] { f("storage of the simhash field type <= the object form's five fields (%s, %,d docs)", st.dataset(), st.size()),
                    f("%.1f vs %.1f B/doc", field, object), field <= object ? "met" : "missed" });
            }
        }
        if (indexing != null) {
            // targets: the field type with v2 defaults >= 0.8x plain on English, >= 0.6x on Chinese; the pipeline at most 0.1 below
            for (IndexingBench.Result r : indexing.results) {
                IndexingBench.Result plain = plainOf(r.corpus());
                boolean field = r.variant().equals(IndexingBench.FIELD_V2);
                if (plain == null || !field && !r.variant().equals(IndexingBench.PIPELINE_V2)) {
                    continue;
                }
                double target = (isChinese(r.corpus()) ? 0.6 : 0.8) - (field ? 0 : 0.1);
                double ratio = r.docsPerSec() / plain.docsPerSec();
                rows.add(new String[] { f("indexing >= %.1fx plain (%s, %s)", target, r.corpus(), r.variant()),
                    f("%.2fx (%.0f vs %.0f docs/s)", ratio, r.docsPerSec(), plain.docsPerSec()), ratio >= target ? "met" : "missed" });
            }
        }
        return rows;
    }

    Path write(Path dir) throws IOException {
        StringBuilder md = new StringBuilder();
        md.append("# simhash for Elasticsearch: benchmark report\n\n");
        md.append("| | |\n| --- | --- |\n");
        md.append("| started | ").append(started).append(" |\n");
        md.append("| command | `").append(o.command()).append("` (").append(o.quick() ? "quick mode" : "full mode").append(") |\n");
        md.append("| duration | ").append(f("%.1f min", seconds / 60))
            .append(waitedSeconds >= 1 ? f(" (after waiting %.1f min for the load to drop)", waitedSeconds / 60) : "").append(" |\n");
        md.append("| machine | ").append(machine.summary()).append(" |\n");
        md.append("| load average | at start ").append(loadStart).append("; highest 1-min value seen during the run ")
            .append(f("%.2f", loadMax)).append("; at end ").append(loadEnd).append(" |\n");
        md.append("| node | Elasticsearch ").append(nodeVersion == null ? RealNodes.esVersion() : nodeVersion)
            .append(" (official distribution), single node on 127.0.0.1, heap ").append(o.heap())
            .append(", plugin installed from the zip built by this run; 1 shard, 0 replicas, force-merged to 1 segment |\n\n");
        md.append("The machine was shared with other work: compare methods within a run (they are interleaved), not absolute numbers across runs.\n\n");

        List<String[]> head = headline();
        if (!head.isEmpty()) {
            md.append("## Targets\n\n| target | measured | |\n| --- | --- | --- |\n");
            for (String[] r : head) {
                md.append("| ").append(r[0]).append(" | ").append(r[1]).append(" | ").append(r[2]).append(" |\n");
            }
            md.append('\n');
        }
        if (!corpora.isEmpty()) {
            md.append("## Corpora\n\n| corpus | source | documents | MB of text | |\n| --- | --- | --- | --- | --- |\n");
            for (Corpora.Corpus c : corpora) {
                md.append(f("| %s | %s | %,d | %.1f | %s |\n", c.name(), c.source(), c.docs().size(), c.bytes() / 1e6,
                    c.available() ? "" : "**unavailable, parts skipped**: " + c.problem()));
            }
            md.append('\n');
        }
        if (latency != null && !latency.results.isEmpty()) {
            writeLatency(md, dir);
        }
        if (fingerprint != null) {
            md.append("## 2. Fingerprinting throughput (one thread)\n\n");
            md.append("Pre-tokenized features are the tokens of the default analyzer (smartcn) of each document. \"features\" cases go from the ")
                .append("token strings to a 64-bit fingerprint (feature hash XXH3-64 + term-frequency weighting + accumulation); both implementations ")
                .append("get the same tokens (hash4j's SimHash sees repeated tokens as repeated elements, which is tf weighting). \"pre-hashed\" cases ")
                .append("time the accumulation alone on the same 64-bit feature hashes. MB/s counts UTF-8 bytes of the features (pre-hashed: of the ")
                .append("features the hashes stand for), or of the text for tokenizers. \"pre-hashed distinct\" cases feed each document's ")
                .append("distinct features once, with their tf or log_tf weight (precomputed), as FeatureBag does, and count ns per distinct ")
                .append("feature; hash4j has no weights and sees each distinct feature once (binary weighting). \"plain double sums\" is ")
                .append("the contract's definition (64 double sums, one addition per bit), timed in the same run. Bytes allocated per document: this thread's ")
                .append("allocation counter (ThreadMXBean) over the timed passes. Median of ").append(o.fpPasses()).append(" interleaved passes.\n\n");
            md.append("| corpus | case | input | MB/s | docs/s | ns per feature | bytes allocated per doc |\n| --- | --- | --- | --- | --- | --- | --- |\n");
            for (FingerprintBench.Result r : fingerprint.results) {
                md.append(f("| %s | %s | %s | %.1f | %,.0f | %.1f | %,.0f |\n", r.corpus(), r.name(), r.input(), r.mbPerSec(), r.docsPerSec(), r.nsPerFeature(),
                    r.bytesPerDoc()));
            }
            md.append('\n');
        }
        if (accumulator != null) {
            md.append("## 2b. The accumulation step per user path (one thread)\n\n");
            md.append("Per path, the text fingerprinted end to end (TextFingerprinter), and on the same documents' distinct features and ")
                .append("weights (in the order the bag adds them) the core's SimHashAccumulator against plain double sums (+w / -w into 64 ")
                .append("doubles in feature order). \"end to end with plain\" is end to end minus ours plus plain. Median of ")
                .append(o.fpPasses()).append(" interleaved passes.\n\n");
            md.append(AccumulatorBench.HEADER).append("\n| --- | --- | ---: | ---: | ---: | ---: | ---: |\n");
            for (String line : accumulator.lines) {
                md.append(line).append('\n');
            }
            md.append('\n');
        }
        if (indexing != null && !indexing.results.isEmpty()) {
            md.append("## 3. Indexing throughput (bulk, same node)\n\n");
            md.append("Per corpus, the same real documents bulk-indexed into a fresh 1-shard index with a `text` field, by 2 concurrent ")
                .append("clients in bulks of 500, until refreshed: without a fingerprint, with a `simhash` multi-field, and through a `simhash` ")
                .append("pipeline (the object form); simhash-v2 (the field type's default), simhash-v1's defaults (smartcn) and v1 with ")
                .append("`standard`. Variants alternate round by round; the median round counts. \"processor\" is the simhash processor's own ")
                .append("time per document from the node's ingest stats (median round).\n\n");
            md.append("| corpus | variant | docs | docs/s | MB/s | vs plain | processor µs/doc | rounds (docs/s) |\n"
                + "| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |\n");
            for (IndexingBench.Result r : indexing.results) {
                StringBuilder rounds = new StringBuilder();
                for (double d : r.roundDocsPerSec()) {
                    rounds.append(rounds.length() == 0 ? "" : ", ").append(f("%.0f", d));
                }
                IndexingBench.Result plain = plainOf(r.corpus());
                md.append(f("| %s | %s | %,d | %,.0f | %.2f | %.2fx | %s | %s |\n", r.corpus(), r.variant(), r.docs(), r.docsPerSec(), r.mbPerSec(),
                    r.docsPerSec() / plain.docsPerSec(), Double.isNaN(r.processorMicrosPerDoc()) ? "" : f("%.1f", r.processorMicrosPerDoc()), rounds));
            }
            md.append('\n');
        }
        if (fieldIndexing != null && !fieldIndexing.results.isEmpty()) {
            fieldIndexing.write(md);
        }
        if (fieldWork != null && !fieldWork.results.isEmpty()) {
            fieldWork.write(md);
        }
        if (latency != null && !latency.storage.isEmpty()) {
            md.append("## 4. Storage\n\n");
            md.append("Each index holds only its own fields (plus `_id`, `_source` and the other metadata every document has), 1 shard, ")
                .append("force-merged to one segment. \"index\" is `_stats` `store.size_in_bytes` / documents; \"fields\" is the sum of the ")
                .append("fingerprint fields (the processor's object: `simhash.hash`, `simhash.b0`..`b3`; the `simhash` field type with ")
                .append("`input: fingerprint`: `fp`, doc values and block terms in one field) or of the `dense_vector` field from the ")
                .append("analyze-disk-usage API. All three indices hold the same fingerprints.\n\n");
            md.append("| data | docs | simhash object index B/doc | simhash field type index B/doc | dense_vector index B/doc | simhash object fields B/doc "
                + "| simhash field type B/doc | dense_vector field B/doc | simhash object fields in detail (B/doc) |\n")
                .append("| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
            for (LatencyBench.Storage s : latency.storage) {
                StringBuilder det = new StringBuilder();
                s.simhashFieldDetail().forEach((k, v) -> det.append(det.length() == 0 ? "" : ", ").append(k).append(' ').append(f("%.1f", v / (double) s.size())));
                double n = s.size();
                md.append(f("| %s | %,d | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %s |\n", s.dataset(), s.size(), s.simhashIndexBytes() / n,
                    s.fieldTypeIndexBytes() / n, s.vectorIndexBytes() / n, s.simhashFieldBytes() / n, s.fieldTypeFieldBytes() / n,
                    s.vectorFieldBytes() / n, det));
            }
            md.append('\n');
        }
        if (verified != null && !verified.results.isEmpty()) {
            verified.write(md);
        }
        if (dedupIngest != null && !dedupIngest.results.isEmpty()) {
            dedupIngest.write(md);
        }
        if (defaultReport != null && !defaultReport.runs.isEmpty()) {
            defaultReport.write(md);
        }
        if (clusterReport != null && !clusterReport.runs.isEmpty()) {
            clusterReport.write(md);
        }
        if (foldWork != null && !foldWork.results.isEmpty()) {
            foldWork.write(md);
        }
        if (quality != null && !quality.results.isEmpty()) {
            writeQuality(md, dir);
        }
        Path file = dir.resolve("report.md");
        Files.writeString(file, md.toString(), StandardCharsets.UTF_8);
        return file;
    }

    private void writeLatency(StringBuilder md, Path dir) throws IOException {
        md.append("## 1. Query latency\n\n");
        md.append(f("Per data set, radius (`max_distance`) and method: %d measured queries after %d warm-up queries, sent one at a time; ", o.queries(), o.warmup()))
            .append("methods interleaved in rounds of ").append(o.round()).append(" queries in rotating order. Latency is client-side wall time of ")
            .append("the HTTP request (`took` p50 is the server's view). Every request asks for the 10 best hits (`size` 10, `track_total_hits` false, ")
            .append("`_source` false). Recall is against the exact answer by brute force: the share of the min(10, matches) nearest documents ")
            .append("returned (ties interchangeable), averaged over queries that have a match.\n\n");
        md.append("- **simhash**: `{\"simhash\": {\"field\": \"simhash\", \"hash\": ..., \"max_distance\": r}}` on the fingerprint index.\n")
            .append("- **linear scan**: `script_score` over `match_all` with `{\"lang\": \"simhash\", \"source\": \"similarity\"}` and `min_score` (64 - r) / 64 ")
            .append("on the same index: every document's hash is read and compared.\n")
            .append("- **knn**: top-level `knn` on a `dense_vector` field (`element_type: bit`, 64 dims, HNSW m 16, ef_construction 100; ")
            .append("l2_norm is Hamming distance for bits) with `k` 10, `similarity` r (a distance bound) and `num_candidates` 100 or 1000.\n\n");
        if (latency.scriptProblem != null) {
            md.append("**The linear scan was not measured**: ").append(latency.scriptProblem).append("\n\n");
        }
        md.append("| data | docs | r | method | p50 ms | p99 ms | mean ms | took p50 ms | recall | min recall | scan p50 / p50 |\n")
            .append("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
        for (LatencyBench.Result r : latency.results) {
            if (Double.isNaN(r.p50())) {
                continue;
            }
            Optional<LatencyBench.Result> scan = find(r.dataset(), r.size(), r.radius(), LatencyBench.Method.SCRIPT);
            String speed = scan.map(s -> f("%.1fx", s.p50() / r.p50())).orElse("n/a");
            md.append(f("| %s | %,d | %d | %s | %s | %s | %s | %s | %s | %s | %s |\n", r.dataset(), r.size(), r.radius(), r.method().label,
                ms(r.p50()), ms(r.p99()), ms(r.mean()), ms(r.tookP50()), num(r.recall()), num(r.minRecall()), speed));
        }
        md.append('\n');
        for (int r : new int[] { 3, 7, 11 }) {
            List<LatencyBench.Result> rs = latency.results.stream().filter(x -> x.dataset().equals("synthetic") && x.radius() == r).toList();
            if (rs.stream().map(LatencyBench.Result::size).distinct().count() >= 1 && !rs.isEmpty()) {
                String png = "latency-r" + r + ".png";
                Plots.latency(dir.resolve(png), "p50 (solid) and p99 (dashed) latency, max_distance " + r + ", synthetic fingerprints", rs);
                md.append("![latency, max_distance ").append(r).append("](").append(png).append(")\n\n");
            }
        }
        if (!latency.skews.isEmpty()) {
            md.append("### Block skew\n\nHow many postings the `simhash` query reads per query: the sum over the 4 blocks of the document ")
                .append("frequencies of every probed block value (computed from the fingerprints; duplicates across blocks counted). Uniform ")
                .append("fingerprints spread evenly over the 65,536 values of a block; fingerprints of real text do not.\n\n");
            md.append("| data | docs | distinct values per block | largest block-value df | postings/query r=3 | r=7 | r=11 |\n| --- | --- | --- | --- | --- | --- | --- |\n");
            for (LatencyBench.Skew s : latency.skews) {
                md.append(f("| %s | %,d | %s | %,d | %,.0f | %,.0f | %,.0f |\n", s.dataset(), s.size(), java.util.Arrays.toString(s.distinctBlockValues()),
                    s.maxBlockDf(), s.meanCandidates().getOrDefault(3, Double.NaN), s.meanCandidates().getOrDefault(7, Double.NaN),
                    s.meanCandidates().getOrDefault(11, Double.NaN)));
            }
            md.append('\n');
        }
        if (!latency.loads.isEmpty()) {
            md.append("### Loading (bulk of pre-computed fingerprints, 2 clients, then force-merge)\n\n| index | docs | load s | docs/s | force-merge s |\n| --- | --- | --- | --- | --- |\n");
            for (LatencyBench.Load l : latency.loads) {
                md.append(f("| %s | %,d | %.1f | %,.0f | %.1f |\n", l.index(), l.size(), l.seconds(), l.size() / l.seconds(), l.mergeSeconds()));
            }
            md.append('\n');
        }
    }

    private void writeQuality(StringBuilder md, Path dir) throws IOException {
        md.append("## 5. Quality on real text\n\n");
        md.append("Corpus per language: the original documents plus copies of each with 2%, 5% and 10% of its words edited (insert, delete or ")
            .append("replace a word, equally likely; words as smartcn segments them, so Chinese is edited by words too). A pair is a near-duplicate ")
            .append("when both documents come from the same original (by construction), or when their originals are natural near-duplicates: exact ")
            .append(f("Jaccard similarity of their word 3-shingle sets >= %.1f (all pairs of originals compared). ", QualityBench.NATURAL))
            .append("Every pair of corpus documents with Hamming distance <= k is a detection; precision and recall count pairs. Pairs whose ")
            .append(f("originals have %.1f <= J < %.1f count as false positives (\"P w/o grey\" leaves them out). ", QualityBench.GREY, QualityBench.NATURAL))
            .append("Best k maximizes F1.\n\n");
        md.append("| lang | setting | originals | natural pairs | k=3 P | k=3 R | k=3 R perturbed | k=3 R natural | best k | P | R | F1 | P w/o grey |\n")
            .append("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
        for (QualityBench.Result r : quality.results) {
            QualityBench.Curve c = r.curve();
            int bk = c.bestK();
            md.append(f("| %s | %s | %,d | %,d | %s | %s | %s | %s | %d | %s | %s | %s | %s |\n", r.lang(), r.setting().name(), r.originals(),
                r.naturalOriginalPairs(), num(c.precision(3)), num(c.recall(3)), num(c.recallPerturbed(3)), num(c.recallNatural(3)), bk,
                num(c.precision(bk)), num(c.recall(bk)), num(c.f1(bk)), num(c.precisionWithoutGrey(bk))));
        }
        md.append("\nDistance between an original and its edited copy (default setting): share within k = 3 and median distance, by edit rate.\n\n");
        StringBuilder h = new StringBuilder("| lang |");
        StringBuilder sep = new StringBuilder("| --- |");
        for (double rate : QualityBench.CURVE_RATES) {
            h.append(f(" %.0f%% edited |", rate * 100));
            sep.append(" --- |");
        }
        md.append(h).append('\n').append(sep).append('\n');
        for (QualityBench.Result r : quality.results) {
            if (r.setting() != QualityBench.SETTINGS.get(0)) {
                continue;
            }
            md.append("| ").append(r.lang()).append(" |");
            for (double rate : QualityBench.CURVE_RATES) {
                double[] d = r.rateDistances().get(rate);
                long within = java.util.Arrays.stream(d).filter(x -> x <= 3).count();
                md.append(f(" %.1f%% (median %.0f) |", 100.0 * within / Math.max(1, d.length), d.length == 0 ? Double.NaN : Stats.median(d)));
            }
            md.append('\n');
        }
        md.append('\n');
        for (String lang : List.of("en", "zh")) {
            Map<String, QualityBench.Curve> curves = new LinkedHashMap<>();
            for (QualityBench.Result r : quality.results) {
                if (r.lang().equals(lang) && (r.setting() == QualityBench.SETTINGS.get(0) || r.setting() == QualityBench.SETTINGS.get(1))) {
                    curves.put(r.setting().name().replace(" (processor default)", ""), r.curve());
                }
            }
            if (!curves.isEmpty()) {
                String png = "quality-" + lang + ".png";
                Plots.quality(dir.resolve(png), "precision (solid) and recall (dashed) against k, " + (lang.equals("en") ? "English" : "Chinese"), curves);
                md.append("![quality ").append(lang).append("](").append(png).append(")\n\n");
            }
        }
    }
}
