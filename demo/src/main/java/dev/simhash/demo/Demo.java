package dev.simhash.demo;

import dev.simhash.core.MinHashSketch;
import dev.simhash.core.SimHash;
import dev.simhash.core.SimHashV2;
import dev.simhash.core.SketchBands;
import dev.simhash.it.support.EsCluster;
import dev.simhash.it.support.EsDistribution;
import dev.simhash.it.support.RealNodes;
import dev.simhash.it.support.Rest;
import dev.simhash.it.support.SampleCorpus;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import static dev.simhash.it.support.Rest.toJson;

/**
 * {@code ./run demo}: starts a real Elasticsearch node with the plugin that keeps running, loads the
 * sample corpus into an index with a {@code simhash} field and shows the near-duplicates the query finds.
 */
public final class Demo {

    static final String INDEX = "demo-docs";
    static final String CLUSTER = "simhash-demo";
    /** Documents whose near-duplicates are shown: copies with changed words, a source line, reordered sentences; and one without any. */
    public static final List<String> SHOWCASE = List.of("zh-cpi-1", "zh-typhoon-1", "en-rates-1", "en-headphones-1", "en-ticket-13");
    private static final int SNIPPET_COLUMNS = 78;

    private final PrintStream out;
    private final Step step;
    private final Path workDir;

    private Demo(PrintStream out, boolean terminal, Path workDir) {
        this.out = out;
        this.step = new Step(out, terminal);
        this.workDir = workDir;
    }

    public static void main(String[] args) throws Exception {
        boolean stopAtEnd = false;
        for (String a : args) {
            if (a.equals("--stop")) {
                stopAtEnd = true;
            } else {
                System.err.println("usage: ./run demo [--stop]   (--stop: stop the node at the end instead of leaving it running)");
                System.exit(2);
            }
        }
        // Chinese output must not depend on the platform's default console encoding
        PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
        Path workDir = Path.of(System.getProperty("simhash.it.workdir", "target/demo")).toAbsolutePath();
        Demo demo = new Demo(out, Boolean.getBoolean("simhash.demo.terminal"), workDir);
        try {
            demo.run(stopAtEnd);
        } catch (Exception | AssertionError e) {
            out.flush();
            System.err.print("[demo] failed: ");
            e.printStackTrace();
            System.exit(1);
        }
    }

    private void run(boolean stopAtEnd) throws Exception {
        Path stateFile = workDir.resolve("node.properties");
        Files.deleteIfExists(stateFile);
        EsDistribution dist = step.run("installing Elasticsearch and the simhash plugin under " + shortPath(workDir),
            RealNodes::distribution);
        EsCluster cluster = EsCluster.builder(dist, RealNodes.workDir().resolve("node")).name(CLUSTER).detached(true).build();
        boolean leaveRunning = false;
        try {
            // written first, so that ./run demo-stop finds the node even if this demo is interrupted
            writeState(stateFile, cluster, "(starting)");
            step.run("starting a node on 127.0.0.1 (it keeps running after this command)", cluster::start);
            String url = "http://" + cluster.httpAddress();
            writeState(stateFile, cluster, url);
            Rest rest = cluster.rest();
            out.println(Step.PREFIX + "node " + url + " is green: " + describeNode(rest));
            SampleCorpus corpus = SampleCorpus.load();
            DemoIndex index = new DemoIndex(rest, INDEX);
            long zh = corpus.docs().stream().filter(d -> d.lang().equals("zh")).count();
            step.run(String.format(Locale.ROOT, "loading %d documents (%d Chinese, %d English) into index %s",
                corpus.docs().size(), zh, corpus.docs().size() - zh, INDEX), () -> {
                    index.create();
                    index.load(corpus);
                    return null;
                });
            report(corpus, index);
            showCurl(url, index);

            if (stopAtEnd) {
                out.println();
                step.run("stopping the node (--stop)", () -> {
                    cluster.close();
                    return null;
                });
            } else {
                leaveRunning = true;
                out.println();
                out.println("The node keeps running:");
                out.println("  address  " + url);
                out.println("  logs     " + shortPath(cluster.logs(0)) + "/  (" + CLUSTER + ".log; console.log has the launcher's output)");
                out.println("  stop     ./run demo-stop");
            }
        } finally {
            if (leaveRunning) {
                cluster.disconnect();
            } else {
                // a failed demo must not leave a half-started node behind (close is a no-op when already stopped)
                cluster.close();
                Files.deleteIfExists(stateFile);
            }
        }
    }

    /**
     * What the demo prints about an index loaded with the sample corpus (its mapping, the near-duplicates, folding, the
     * default threshold), as {@code ./run demo} prints it: DemoPageIT compares docs/demo.md's samples with it.
     */
    static void report(PrintStream out, SampleCorpus corpus, DemoIndex index) {
        new Demo(out, false, Path.of("")).report(corpus, index);
    }

    private void report(SampleCorpus corpus, DemoIndex index) {
        out.println();
        out.println("mapping of \"body\": " + toJson(DemoIndex.bodyMapping()) + "  (simhash-v2 with its minhash-v1 sketch, the field type's defaults; the "
            + "fingerprint and the sketch are computed when a document is indexed)");
        Map<String, Long> fingerprints = index.fingerprints();
        Map<String, byte[]> sketches = index.sketches();
        showDocuments(corpus, index, fingerprints, sketches);
        showTexts(corpus, fingerprints, sketches, index);
        showFolding(index);
        explainThreshold(corpus, index, fingerprints, sketches);
        showIngest(corpus, index);
    }

    /** New documents checked against the index on their way into another one: a copy of an indexed story is tagged. */
    private void showIngest(SampleCorpus corpus, DemoIndex index) {
        heading("Near-duplicates caught at ingest: the simhash_dedup processor");
        SampleCorpus.Doc original = corpus.docs().stream().filter(d -> d.group() != null && d.lang().equals("en")).findFirst().orElseThrow();
        Map<String, String> incoming = new LinkedHashMap<>();
        incoming.put("incoming-1", original.body() + " (via newswire)");
        incoming.put("incoming-2", "The museum will stay open late on Fridays this summer, with guided tours of the new sculpture garden.");
        out.println("pipeline " + index.dedupPipeline() + ": " + toJson(Map.of("simhash_dedup", Rest.ordered("field", "body", "target", index.name())))
            + "; POST " + index.incoming() + "/_bulk?pipeline=" + index.dedupPipeline());
        Map<String, Map<String, Object>> tags = index.ingestThroughDedup(incoming);
        for (Map.Entry<String, String> d : incoming.entrySet()) {
            Map<String, Object> tag = tags.get(d.getKey());
            out.println(String.format(Locale.ROOT, "  %-11s %s", d.getKey(), Columns.truncate(d.getValue(), 60)));
            out.println(tag == null ? "              no near-duplicate in " + index.name() + ": indexed as it is"
                : String.format(Locale.ROOT, "              duplicate_of: %s/%s, similarity %.3f (written into the document before it was indexed)",
                    tag.get("index"), tag.get("id"), ((Number) tag.get("similarity")).doubleValue()));
        }
    }

    private static void writeState(Path stateFile, EsCluster cluster, String url) throws IOException {
        Files.writeString(stateFile, "# the demo node, read by ./run demo-stop\nurl=" + url + "\npid_file=" + cluster.pidFile(0) + "\nlogs="
            + cluster.logs(0) + "\n", StandardCharsets.UTF_8);
    }

    private static String describeNode(Rest rest) {
        Map<String, Object> nodes = rest.ok("GET", "/_nodes/_local/plugins", null).at("nodes");
        @SuppressWarnings("unchecked")
        Map<String, Object> node = (Map<String, Object>) nodes.values().iterator().next();
        List<String> plugins = new ArrayList<>();
        for (Object p : (List<?>) node.get("plugins")) {
            Map<?, ?> plugin = (Map<?, ?>) p;
            plugins.add(plugin.get("name") + " " + plugin.get("version"));
        }
        return "Elasticsearch " + node.get("version") + ", plugins: " + String.join(", ", plugins);
    }

    private void heading(String title) {
        out.println();
        out.println("== " + title + " ==");
    }

    private void showDocuments(SampleCorpus corpus, DemoIndex index, Map<String, Long> fingerprints, Map<String, byte[]> sketches) {
        heading("Near-duplicates of indexed documents: \"simhash\" query with \"like\" and the defaults (min_similarity "
            + DemoIndex.MIN_SIMILARITY + ")");
        out.println("d = Hamming distance of the 64-bit fingerprints (0: the same words); s = the _score, the estimated share of "
            + "shingles both texts have (from their minhash-v1 sketches); then how the hit's text differs");
        for (String id : SHOWCASE) {
            SampleCorpus.Doc doc = corpus.doc(id);
            out.println();
            out.println(id + "  " + Columns.truncate(doc.body(), SNIPPET_COLUMNS));
            List<DemoIndex.Hit> hits = index.search(index.likeQuery(id)).stream().filter(h -> !h.id().equals(id)).toList();
            long fp = fingerprints.get(id);
            printHits(hits, fp, doc.body());
            printMissed(corpus, corpus.expectedNearDuplicates(id), hits, fp, sketches.get(id), doc.body(), fingerprints, sketches);
            if (hits.isEmpty() && doc.group() == null) {
                int closest = fingerprints.entrySet().stream().filter(e -> !e.getKey().equals(id))
                    .mapToInt(e -> SimHash.distance(fp, e.getValue())).min().orElse(SimHash.BITS);
                double similar = sketches.entrySet().stream().filter(e -> !e.getKey().equals(id))
                    .mapToDouble(e -> MinHashSketch.V1.similarity(sketches.get(id), e.getValue())).max().orElse(0);
                out.println(String.format(Locale.ROOT, "    (no near-duplicates at min_similarity %s: the closest other fingerprint is %d bits away, "
                    + "the most similar other sketch estimates %.3f)", DemoIndex.MIN_SIMILARITY, closest, similar));
            }
        }
    }

    private void showTexts(SampleCorpus corpus, Map<String, Long> fingerprints, Map<String, byte[]> sketches, DemoIndex index) {
        heading("Near-duplicates of a free text: \"simhash\" query with \"text\" (fingerprinted and sketched on the node with the field's options)");
        for (SampleCorpus.TextQuery q : SampleCorpus.TEXT_QUERIES) {
            out.println();
            out.println(q.lang() + " text: " + Columns.truncate(q.text(), SNIPPET_COLUMNS));
            // the text's fingerprint, for the distances only: the plugin's core computes what the field computes
            long fp = SimHashV2.fingerprint(q.text(), 1).getAsLong();
            List<DemoIndex.Hit> hits = index.search(index.textQuery(q.text()));
            printHits(hits, fp, q.text());
            printMissed(corpus, corpus.group(q.group()), hits, fp, MinHashSketch.V1.sketch(q.text()), q.text(), fingerprints, sketches);
        }
    }

    private void showFolding(DemoIndex index) {
        heading("Folding near-duplicates in a result list: the same search without and with _simhash/fold");
        for (SampleCorpus.TextQuery q : SampleCorpus.FOLD_QUERIES) {
            Map<String, Object> body = DemoIndex.matchQuery(q.text(), 8);
            out.println();
            out.println(q.lang() + " search (match on body): " + q.text());
            out.println("  without folding: POST " + index.name() + "/_search");
            int rank = 1;
            for (DemoIndex.Ranked r : index.ranked(body, false)) {
                out.println(String.format(Locale.ROOT, "    %d. %-16s %s", rank++, r.id(), Columns.truncate(r.body(), 56)));
            }
            out.println("  with folding: POST " + index.foldPath());
            rank = 1;
            for (DemoIndex.Ranked r : index.ranked(body, true)) {
                out.println(String.format(Locale.ROOT, "    %d. %-16s %s", rank++, r.id(), Columns.truncate(r.body(), 56)));
                if (!r.folded().isEmpty()) {
                    out.println("         + " + r.folded().size() + " similar: " + String.join(", ", r.folded()));
                }
            }
        }
    }

    private void printHits(List<DemoIndex.Hit> hits, long queryFingerprint, String queryText) {
        int idWidth = hits.stream().mapToInt(h -> h.id().length()).max().orElse(0);
        for (DemoIndex.Hit h : hits) {
            out.println(String.format(Locale.ROOT, "    d=%2d  s=%.3f  %-" + idWidth + "s  %s", h.distance(queryFingerprint), h.similarity(), h.id(),
                TextDiff.summarize(queryText, h.body())));
        }
    }

    /** The planted copies the query did not return, with their distance, estimated and exact similarity: why they are not hits. */
    private void printMissed(SampleCorpus corpus, Set<String> planted, List<DemoIndex.Hit> hits, long queryFingerprint, byte[] querySketch,
        String queryText, Map<String, Long> fingerprints, Map<String, byte[]> sketches) {
        Set<String> found = new LinkedHashSet<>();
        hits.forEach(h -> found.add(h.id()));
        for (String id : planted) {
            if (found.contains(id)) {
                continue;
            }
            String body = corpus.doc(id).body();
            int d = SimHash.distance(queryFingerprint, fingerprints.get(id));
            double estimated = MinHashSketch.V1.similarity(querySketch, sketches.get(id));
            double exact = Shingles.jaccard(queryText, body);
            int shared = SketchBands.sharedBands(querySketch, 0, sketches.get(id), 0);
            String why = shared == 0 ? String.format(Locale.ROOT, "its sketch shares none of the query's %d band keys", SketchBands.BANDS)
                : String.format(Locale.ROOT, "estimated %.3f < %s", estimated, DemoIndex.MIN_SIMILARITY);
            out.println(String.format(Locale.ROOT, "    missed %s: planted copy, d=%d, %s (exact share of shingles %.3f)", id, d, why, exact));
        }
    }

    /** One planted pair: the fingerprints' distance, the exact share of shingles and the sketches' estimate. */
    private record Pair(String a, String b, int distance, double exact, double estimated, boolean found) {
        @Override
        public String toString() {
            return String.format(Locale.ROOT, "%s/%s (d=%d, exact %.3f, estimated %.3f)", a, b, distance, exact, estimated);
        }
    }

    /**
     * The standard deviation of minhash-v1's estimate at similarity {@code s}: each one-bit bin agrees with probability
     * (1 + s) / 2, and the estimate is twice the share of agreeing bins minus one.
     */
    private static double estimateError(double s) {
        double agree = (1 + s) / 2;
        return 2 * Math.sqrt(agree * (1 - agree) / MinHashSketch.V1.bins());
    }

    /** Explains the default threshold with the corpus's own numbers, measured on the stored fingerprints and sketches, and checks every document. */
    private void explainThreshold(SampleCorpus corpus, DemoIndex index, Map<String, Long> fp, Map<String, byte[]> sketches) {
        double threshold = DemoIndex.MIN_SIMILARITY;
        heading("Why min_similarity " + threshold + ": the default threshold");
        out.println(String.format(Locale.ROOT, "A \"like\" or \"text\" query without max_distance on a field with a sketch keeps the documents "
            + "that share at least %d%% of their shingles with the query (runs of %d tokens, at every length; the Jaccard similarity of "
            + "the two sets), as estimated from the %d-byte minhash-v1 sketches stored beside the fingerprints (%d one-bit bins: about "
            + "+-%.2f near %s). The candidates are the documents whose sketch has the same %d-bin key as the query's in one of its %d "
            + "bands (indexed as terms; at any Hamming distance), and each one is verified with its sketch; the _score is the estimate.",
            Math.round(threshold * 100), MinHashSketch.SHINGLE, MinHashSketch.V1.bytes(), MinHashSketch.V1.bins(), estimateError(threshold),
            threshold, SketchBands.ROWS, SketchBands.BANDS));
        Map<String, Set<String>> found = index.nearDuplicatesOfEach(corpus);
        List<SampleCorpus.Doc> docs = corpus.docs();
        List<Pair> planted = new ArrayList<>();
        List<Integer> unrelatedDistances = new ArrayList<>();
        int unrelatedFound = 0;
        for (int i = 0; i < docs.size(); i++) {
            for (int j = i + 1; j < docs.size(); j++) {
                SampleCorpus.Doc a = docs.get(i);
                SampleCorpus.Doc b = docs.get(j);
                int d = SimHash.distance(fp.get(a.id()), fp.get(b.id()));
                boolean hit = found.get(a.id()).contains(b.id()) || found.get(b.id()).contains(a.id());
                if (a.group() != null && a.group().equals(b.group())) {
                    planted.add(new Pair(a.id(), b.id(), d, Shingles.jaccard(a.body(), b.body()),
                        MinHashSketch.V1.similarity(sketches.get(a.id()), sketches.get(b.id())), hit));
                } else {
                    unrelatedDistances.add(d);
                    unrelatedFound += hit ? 1 : 0;
                }
            }
        }
        Collections.sort(unrelatedDistances);
        List<Pair> above = planted.stream().filter(p -> p.exact() >= threshold).toList();
        List<Pair> below = planted.stream().filter(p -> p.exact() < threshold).toList();
        List<Pair> aboveMissed = above.stream().filter(p -> !p.found()).toList();
        out.println(String.format(Locale.ROOT, "Of the %d planted pairs, %d share at least %s of their shingles (exact, computed from the texts): "
            + "the query finds %d of them%s.", planted.size(), above.size(), threshold, above.size() - aboveMissed.size(),
            aboveMissed.isEmpty() ? "" : "; it misses " + aboveMissed + ", whose sketches estimate just under " + threshold));
        List<Pair> belowFound = below.stream().filter(Pair::found).toList();
        out.println(String.format(Locale.ROOT, "The other %d share less (%.2f-%.2f): copies with several words edited, which share fewer "
            + "shingles than words; the query finds %d of them%s.", below.size(),
            below.stream().mapToDouble(Pair::exact).min().orElse(0), below.stream().mapToDouble(Pair::exact).max().orElse(0),
            belowFound.size(), belowFound.isEmpty() ? "" : " " + belowFound + ", whose sketches estimate just over " + threshold));
        out.println(String.format(Locale.ROOT, "Unrelated pairs found: %d of %d. Their fingerprints are at least %d bits apart (median %d; random "
            + "would be 32), the planted copies %d-%d.", unrelatedFound, unrelatedDistances.size(), unrelatedDistances.get(0),
            unrelatedDistances.get(unrelatedDistances.size() / 2), planted.stream().mapToInt(Pair::distance).min().orElse(0),
            planted.stream().mapToInt(Pair::distance).max().orElse(0)));
        int wrong = 0;
        for (SampleCorpus.Doc d : docs) {
            Set<String> outside = new LinkedHashSet<>(found.get(d.id()));
            outside.removeAll(corpus.expectedNearDuplicates(d.id()));
            if (!outside.isEmpty()) {
                wrong++;
                out.println("  ! " + d.id() + ": found " + outside + ", outside its planted group");
            }
        }
        out.println(wrong == 0
            ? String.format(Locale.ROOT, "Checked all %d documents with the same query: none found a document outside its planted group.", docs.size())
            : wrong + " of " + docs.size() + " documents found documents outside their planted group (listed above).");
    }

    private void showCurl(String url, DemoIndex index) {
        heading("Try it");
        String body = toJson(index.likeQuery(SHOWCASE.get(0)));
        out.println("curl -s -H 'Content-Type: application/json' '" + url + index.searchPath() + "' -d '" + body + "'");
        out.println("Search with your own text: replace \"like\": {...} by \"text\": \"...\". Documents you add to " + INDEX
            + " are fingerprinted by its simhash field.");
    }

    /** A path relative to the working directory (the project) when it is inside it, for shorter lines. */
    private static String shortPath(Path p) {
        Path cwd = Path.of("").toAbsolutePath();
        return p.startsWith(cwd) ? cwd.relativize(p).toString() : p.toString();
    }
}
