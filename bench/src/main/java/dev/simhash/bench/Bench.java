package dev.simhash.bench;

import dev.simhash.it.support.RealNodes;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The benchmark harness: {@code ./run bench [--quick]}. Fetches the real corpora, measures
 * fingerprinting throughput and detection quality in this JVM, starts a real Elasticsearch node with
 * the plugin, measures query latency, storage and indexing throughput on it side by side, and writes
 * a dated report with plots under {@code bench/results/}.
 */
public final class Bench {

    /** Everything a run is configured with. */
    record Options(boolean quick, int[] sizes, int warmup, int queries, int round, int realSize, double fpSeconds, int fpPasses,
                   int indexDocs, int indexRounds, int qualityEn, int qualityZh, String heap, Set<String> sections, Path out, String command,
                   int waitIdleMinutes, boolean indexSmartcn, int fieldDocs, boolean profile, int dedupDocs, int[] reportDocs,
                   double reportClustered, int clusterDocs) {}

    static final List<String> SECTIONS = List.of("fingerprint", "quality", "latency", "real", "indexing", "field-indexing", "field-work",
        "verified", "dedup-ingest", "report-default", "report-cluster", "fold-work", "accumulator");

    private Bench() {}

    /** True when a bulk response reports no item errors. */
    static boolean bulkOk(String body) {
        String head = body.length() > 80 ? body.substring(0, 80) : body;
        return head.contains("\"errors\":false");
    }

    static int parseSize(String s) {
        String t = s.trim().toLowerCase(Locale.ROOT);
        if (t.endsWith("k")) {
            return Integer.parseInt(t.substring(0, t.length() - 1)) * 1000;
        }
        if (t.endsWith("m")) {
            return Integer.parseInt(t.substring(0, t.length() - 1)) * 1_000_000;
        }
        return Integer.parseInt(t);
    }

    static Options parse(String[] args) {
        boolean quick = false;
        String sizes = null;
        Integer queries = null;
        String heap = null;
        String only = null;
        Path out = null;
        int waitIdle = 0;
        boolean indexSmartcn = true;
        Integer fieldDocs = null;
        boolean profile = false;
        Integer dedupDocs = null;
        String reportDocs = null;
        double reportClustered = SyntheticTexts.CLUSTERED_SHARE;
        String clusterDocs = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--quick" -> quick = true;
                case "--sizes" -> sizes = args[++i];
                case "--queries" -> queries = Integer.parseInt(args[++i]);
                case "--heap" -> heap = args[++i];
                case "--only" -> only = args[++i];
                case "--out" -> out = Path.of(args[++i]);
                case "--wait-idle" -> waitIdle = Integer.parseInt(args[++i]);
                case "--no-smartcn" -> indexSmartcn = false;
                case "--field-docs" -> fieldDocs = parseSize(args[++i]);
                case "--profile" -> profile = true;
                case "--dedup-docs" -> dedupDocs = parseSize(args[++i]);
                case "--report-docs" -> reportDocs = args[++i];
                case "--report-clustered" -> reportClustered = Double.parseDouble(args[++i]);
                case "--cluster-docs" -> clusterDocs = args[++i];
                case "-h", "--help" -> {
                    System.out.println("usage: ./run bench [--quick] [--sizes 100k,1m,5m] [--queries N] [--heap 3g] [--only "
                        + String.join(",", SECTIONS) + "] [--out DIR] [--wait-idle MINUTES] [--no-smartcn] [--field-docs N] [--profile] [--dedup-docs N] [--report-docs 1m,4m] [--report-clustered 0.4] [--cluster-docs 1m]");
                    System.exit(0);
                }
                default -> throw new IllegalArgumentException("unknown option [" + args[i] + "], see ./run bench --help");
            }
        }
        int[] sz = (sizes != null ? List.of(sizes.split(",")) : quick ? List.of("10k", "100k") : List.of("100k", "1m")).stream()
            .mapToInt(Bench::parseSize).toArray();
        int q = queries != null ? queries : quick ? 200 : 1000;
        Set<String> sections = new LinkedHashSet<>(only == null ? SECTIONS : List.of(only.split(",")));
        for (String s : sections) {
            if (!SECTIONS.contains(s)) {
                throw new IllegalArgumentException("unknown section [" + s + "], expected some of " + SECTIONS);
            }
        }
        String date = LocalDate.now(ZoneOffset.UTC).toString();
        Path dir = out != null ? out : Path.of("bench/results", quick ? date + "-quick" : date);
        String cmd = "./run bench" + (args.length == 0 ? "" : " " + String.join(" ", args));
        return new Options(quick, sz, quick ? 50 : 200, q, 50, quick ? 20_000 : 100_000, quick ? 0.5 : 1.5, quick ? 3 : 5,
            quick ? 4000 : 40_000, quick ? 2 : 3, quick ? 1200 : 100_000, quick ? 600 : 100_000, heap != null ? heap : quick ? "1g" : "3g",
            sections, dir, cmd, waitIdle, indexSmartcn, fieldDocs != null ? fieldDocs : quick ? 3000 : 15_000, profile,
            dedupDocs != null ? dedupDocs : quick ? 100_000 : 1_000_000,
            (reportDocs != null ? List.of(reportDocs.split(",")) : quick ? List.of("20k", "80k") : List.of("1m", "4m")).stream()
                .mapToInt(Bench::parseSize).sorted().toArray(), reportClustered,
            clusterDocs != null ? parseSize(clusterDocs) : quick ? 20_000 : 1_000_000);
    }

    public static void main(String[] args) throws Exception {
        Options o = parse(args);
        Log log = new Log();
        if (o.waitIdleMinutes() > 0) {
            waitIdle(o.waitIdleMinutes(), log);
        }
        double waited = log.seconds();
        Machine machine = Machine.read();
        LoadSampler load = new LoadSampler();
        load.start();
        String started = ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ISO_OFFSET_DATE_TIME);
        log.info("simhash benchmark, " + (o.quick() ? "QUICK" : "FULL") + " mode; report to " + o.out());
        log.info("machine: " + machine.summary() + "; load average now " + machine.loadAverage());
        Path work = Path.of("target/bench").toAbsolutePath();
        Files.createDirectories(work);
        Files.createDirectories(o.out());

        Report report = new Report(o, machine, started);
        List<Corpora.Corpus> corpora = new ArrayList<>();
        if (o.sections().stream().anyMatch(s -> !s.equals("latency") && !s.equals("verified"))) {
            corpora.add(Corpora.english(work.resolve("corpora"), log));
            corpora.add(Corpora.chinese(work.resolve("corpora"), log));
            report.corpora = corpora;
        }
        List<Corpora.Corpus> available = corpora.stream().filter(Corpora.Corpus::available).toList();

        if (o.sections().contains("fingerprint")) {
            log.info("== 2. fingerprinting throughput (one thread, no node running) ==");
            FingerprintBench fb = new FingerprintBench(log, o.fpSeconds(), o.fpPasses());
            for (Corpora.Corpus c : available) {
                fb.run(c);
            }
            log.info("(checksum " + Long.toHexString(fb.sink) + ")");
            report.fingerprint = fb;
        }
        if (o.sections().contains("accumulator")) {
            log.info("== 2b. the accumulation step per user path: ours against plain double sums (one thread, no node running) ==");
            AccumulatorBench ab = new AccumulatorBench(log, o.fpSeconds(), o.fpPasses(), o.quick() ? 500 : 2000);
            for (Corpora.Corpus c : available) {
                ab.run(c);
            }
            log.info("(checksum " + Long.toHexString(ab.sink) + ")");
            report.accumulator = ab;
        }
        if (o.sections().contains("fold-work")) {
            log.info("== 9. the fold's own work at min_similarity 0.8: by the candidate radius vs by the sketch's bands (one thread) ==");
            FoldWorkBench fw = new FoldWorkBench(log, o.fpSeconds(), o.fpPasses());
            for (int window : new int[] { 100, 300, 1_000, 10_000 }) {
                fw.run(window, 20261129L + window);
            }
            log.info("(checksum " + Long.toHexString(fw.sink) + ")");
            report.foldWork = fw;
        }
        if (o.sections().contains("field-work")) {
            log.info("== 3c. the simhash field's own work per document, with and without the sketch (one thread, no node running) ==");
            FieldWorkBench wb = new FieldWorkBench(log, o.fpSeconds(), o.fpPasses());
            FieldIndexingBench docsOf = new FieldIndexingBench(null, log, 500);
            for (Corpora.Corpus c : available) {
                wb.run(c.name(), docsOf.documents(c, o.fieldDocs()));
            }
            log.info("(checksum " + Long.toHexString(wb.sink) + ")");
            report.fieldWork = wb;
        }
        if (o.sections().contains("quality")) {
            log.info("== 5. quality of near-duplicate detection on real text ==");
            QualityBench qb = new QualityBench(log);
            for (Corpora.Corpus c : available) {
                qb.run(c, c.name().equals("zh") ? o.qualityZh() : o.qualityEn(), 20261122L);
            }
            report.quality = qb;
        }
        boolean needNode = o.sections().contains("latency") || o.sections().contains("real") || o.sections().contains("indexing")
            || o.sections().contains("field-indexing") || o.sections().contains("verified") || o.sections().contains("dedup-ingest")
            || o.sections().contains("report-default");
        if (needNode) {
            try (BenchNode node = BenchNode.start(work.resolve("node"), o.heap(), log)) {
                report.nodeVersion = RealNodes.esVersion();
                LatencyBench lb = new LatencyBench(node, log,
                    new LatencyBench.Config(o.warmup(), o.queries() + o.warmup(), o.round(), 10, 5000));
                report.latency = lb;
                int[] radii = { 3, 7, 11 };
                if (o.sections().contains("latency")) {
                    for (int n : o.sizes()) {
                        log.info(String.format(Locale.ROOT, "== 1. query latency, synthetic fingerprints, %,d documents ==", n));
                        Datasets.Data d = Datasets.synthetic(n, o.queries() + o.warmup(), 42L + n);
                        lb.run(d.name(), d.fingerprints(), d.queries(), radii);
                    }
                }
                if (o.sections().contains("real") && !available.isEmpty()) {
                    log.info("== 1b. query latency, fingerprints of real text ==");
                    Datasets.Data d = Datasets.realText(available, o.realSize(), o.queries() + o.warmup(), 7L, log);
                    lb.run(d.name(), d.fingerprints(), d.queries(), radii);
                }
                if (o.sections().contains("indexing") && !available.isEmpty()) {
                    log.info("== 3. indexing throughput: simhash field type and pipeline vs plain, per corpus ==");
                    IndexingBench ib = new IndexingBench(node, log, o.indexSmartcn());
                    for (Corpora.Corpus c : available) {
                        List<String> docs = new ArrayList<>();
                        for (int i = 0; docs.size() < o.indexDocs(); i++) {
                            docs.add(c.docs().get(i % c.docs().size()));
                        }
                        ib.run(c.name(), docs, o.indexRounds(), 500);
                    }
                    report.indexing = ib;
                }
                if (o.sections().contains("field-indexing") && !available.isEmpty()) {
                    log.info("== 3b. indexing a text field with a simhash multi-field (default, sketch none) vs plain text, per language ==");
                    FieldIndexingBench fb = new FieldIndexingBench(node, log, 500);
                    report.fieldIndexing = fb;
                    for (Corpora.Corpus c : available) {
                        fb.run(c.name(), fb.documents(c, o.fieldDocs()), o.indexRounds());
                    }
                    if (o.profile()) {
                        for (Corpora.Corpus c : available) {
                            fb.profile(c.name(), fb.documents(c, o.fieldDocs()), o.out());
                        }
                    }
                }
                if (o.sections().contains("dedup-ingest") && !available.isEmpty()) {
                    int base = o.dedupDocs();
                    log.info(String.format(Locale.ROOT, "== 7. near-duplicates caught at ingest: simhash_dedup (tag) vs the same pipeline without it, "
                        + "into an index of %,d texts ==", base));
                    DedupIngestBench db = new DedupIngestBench(node, log);
                    report.dedupIngest = db;
                    db.loadBase(base, 20261129L);
                    int batch = o.quick() ? 1000 : 2000;
                    FieldIndexingBench docsOf = new FieldIndexingBench(null, log, 500);
                    for (Corpora.Corpus c : available) {
                        db.run(c.name(), docsOf.documents(c, 2 * (1 + o.indexRounds()) * batch), batch, o.indexRounds(), o.quick() ? 200 : 500);
                    }
                    db.cleanUp();
                }
                if (o.sections().contains("report-default")) {
                    int[] sizes = o.reportDocs();
                    log.info(String.format(Locale.ROOT, "== 8. the whole-index report at the default vs max_distance 6, %s texts ==",
                        Arrays.toString(sizes)));
                    DefaultReportBench rb = new DefaultReportBench(node, log, o.reportClustered());
                    report.defaultReport = rb;
                    for (int n : sizes) {
                        rb.run(n, sizes[sizes.length - 1], 20261129L);
                    }
                    rb.cleanUp();
                }
                if (o.sections().contains("verified")) {
                    VerifiedBench vb = new VerifiedBench(node, log, o.warmup(), o.round());
                    report.verified = vb;
                    for (int n : o.sizes()) {
                        log.info(String.format(Locale.ROOT, "== 6. verified like query vs ids, plain like and linear scan; sketch bytes; %,d texts ==", n));
                        vb.run(n, o.queries(), 20261126L);
                    }
                }
            }
        }
        if (o.sections().contains("report-cluster")) {
            log.info(String.format(Locale.ROOT, "== 8b. the whole-index report at the default on 3 nodes, %,d texts ==", o.clusterDocs()));
            try (BenchNode cluster = BenchNode.start(work.resolve("cluster3"), "2g", log, 3)) {
                ClusterReportBench cb = new ClusterReportBench(cluster, log);
                report.clusterReport = cb;
                cb.run(o.clusterDocs(), o.reportClustered(), 20261130L);
                cb.cleanUp();
            }
        }
        load.stopSampling();
        report.seconds = log.seconds() - waited;
        report.waitedSeconds = waited;
        report.loadMax = load.max();
        report.loadEnd = Machine.loadAverageNow();
        Path md = report.write(o.out());
        log.info("report written: " + md + " (total " + log.elapsed() + ")");
    }

    /** Waits (at most the given minutes) until the 1-minute load average is below 1, so other work does not skew the run. */
    static void waitIdle(int minutes, Log log) throws InterruptedException {
        long deadline = System.nanoTime() + minutes * 60_000_000_000L;
        log.info("waiting up to " + minutes + " min for the 1-minute load average to drop below 1 (now " + Machine.loadAverageNow() + ") ...");
        while (Machine.oneMinuteLoad() >= 1.0 && System.nanoTime() < deadline) {
            Thread.sleep(5_000);
        }
        log.info("starting; load average " + Machine.loadAverageNow());
    }

    /** Samples the 1-minute load average every 10 s to report the worst seen during the run. */
    static final class LoadSampler extends Thread {
        private volatile boolean running = true;
        private volatile double max;

        LoadSampler() {
            super("load-sampler");
            setDaemon(true);
        }

        @Override
        public void run() {
            while (running) {
                max = Math.max(max, Machine.oneMinuteLoad());
                try {
                    Thread.sleep(10_000);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }

        void stopSampling() {
            running = false;
            interrupt();
        }

        double max() {
            return max;
        }
    }

    static String read(Path p) {
        try {
            return Files.readString(p, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }
}
