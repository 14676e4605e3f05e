package dev.simhash.demo;

import dev.simhash.core.FingerprintSpec;
import dev.simhash.core.SimHash;
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
            out.println();
            out.println("mapping of \"body\": " + toJson(DemoIndex.bodyMapping()) + "  (simhash-v2, the field type's default; the "
                + "fingerprint is computed when a document is indexed)");

            Map<String, Long> fingerprints = index.fingerprints();
            showDocuments(corpus, index, fingerprints);
            showTexts(index);
            showFolding(index);
            explainDistance(corpus, index, fingerprints);
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

    private void showDocuments(SampleCorpus corpus, DemoIndex index, Map<String, Long> fingerprints) {
        heading("Near-duplicates of indexed documents: \"simhash\" query with \"like\", max_distance " + DemoIndex.MAX_DISTANCE);
        out.println("d = Hamming distance of the 64-bit fingerprints (0: the same words), score = (64 - d) / 64; then how the hit's text differs");
        for (String id : SHOWCASE) {
            SampleCorpus.Doc doc = corpus.doc(id);
            out.println();
            out.println(id + "  " + Columns.truncate(doc.body(), SNIPPET_COLUMNS));
            List<DemoIndex.Hit> hits = index.search(index.likeQuery(id)).stream().filter(h -> !h.id().equals(id)).toList();
            if (hits.isEmpty()) {
                long fp = fingerprints.get(id);
                int closest = fingerprints.entrySet().stream().filter(e -> !e.getKey().equals(id))
                    .mapToInt(e -> SimHash.distance(fp, e.getValue())).min().orElse(SimHash.BITS);
                out.println("    (no near-duplicates within " + DemoIndex.MAX_DISTANCE + " bits; the closest other document is " + closest
                    + " bits away)");
            }
            printHits(hits, doc.body());
        }
    }

    private void showTexts(DemoIndex index) {
        heading("Near-duplicates of a free text: \"simhash\" query with \"text\" (fingerprinted on the node with the field's options)");
        for (SampleCorpus.TextQuery q : SampleCorpus.TEXT_QUERIES) {
            out.println();
            out.println(q.lang() + " text: " + Columns.truncate(q.text(), SNIPPET_COLUMNS));
            printHits(index.search(index.textQuery(q.text())), q.text());
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

    private void printHits(List<DemoIndex.Hit> hits, String queryText) {
        int idWidth = hits.stream().mapToInt(h -> h.id().length()).max().orElse(0);
        for (DemoIndex.Hit h : hits) {
            out.println(String.format(Locale.ROOT, "    d=%2d  %-" + idWidth + "s  %s", h.distance(), h.id(), TextDiff.summarize(queryText, h.body())));
        }
    }

    /** Prints the distances that justify the radius, measured on the stored fingerprints, and checks every document. */
    private void explainDistance(SampleCorpus corpus, DemoIndex index, Map<String, Long> fp) {
        heading("Why max_distance " + DemoIndex.MAX_DISTANCE);
        List<SampleCorpus.Doc> docs = corpus.docs();
        List<Integer> planted = new ArrayList<>();
        List<Integer> unrelated = new ArrayList<>();
        for (int i = 0; i < docs.size(); i++) {
            for (int j = i + 1; j < docs.size(); j++) {
                SampleCorpus.Doc a = docs.get(i);
                SampleCorpus.Doc b = docs.get(j);
                int d = SimHash.distance(fp.get(a.id()), fp.get(b.id()));
                if (a.group() != null && a.group().equals(b.group())) {
                    planted.add(d);
                } else {
                    unrelated.add(d);
                }
            }
        }
        Collections.sort(planted);
        Collections.sort(unrelated);
        out.println(String.format(Locale.ROOT, "Planted copies here are %d-%d bits apart; unrelated documents at least %d (median %d; random would be 32).",
            planted.get(0), planted.get(planted.size() - 1), unrelated.get(0), unrelated.get(unrelated.size() / 2)));
        int defaultRadius = FingerprintSpec.LATEST.defaultMaxDistance();
        out.println(String.format(Locale.ROOT, "These are short texts with several words edited (most planted pairs share under 80%% of their "
            + "5-word shingles): simhash-v2's default max_distance (%d, chosen on natural near-duplicates) finds %d of the %d planted "
            + "pairs and %d unrelated pairs; the fold above uses that default.", defaultRadius,
            planted.stream().filter(d -> d <= defaultRadius).count(), planted.size(), unrelated.stream().filter(d -> d <= defaultRadius).count()));
        int wrong = 0;
        Map<String, Set<String>> found = index.nearDuplicatesOfEach(corpus);
        for (SampleCorpus.Doc d : docs) {
            if (!found.get(d.id()).equals(corpus.expectedNearDuplicates(d.id()))) {
                wrong++;
                out.println("  ! " + d.id() + ": found " + found.get(d.id()) + ", planted " + corpus.expectedNearDuplicates(d.id()));
            }
        }
        long grouped = docs.stream().filter(d -> d.group() != null).count();
        out.println(wrong == 0
            ? String.format(Locale.ROOT, "Checked all %d documents with the same query: all %d planted groups (%d documents) found, nothing unrelated matched.",
                docs.size(), corpus.groups().size(), grouped)
            : wrong + " of " + docs.size() + " documents did not find exactly their planted group (listed above).");
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
