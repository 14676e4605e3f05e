package dev.simhash.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Bulk indexing of a {@code text} field with a {@code simhash} multi-field against the text alone, side by side on one
 * node: per language, three indices (plain {@code text}; {@code text} + {@code simhash} with its defaults, i.e. the
 * sketch; {@code text} + {@code simhash} with {@code "sketch": "none"}) loaded with the same bulks in interleaved rounds.
 * Reports docs/s per variant, the median ratio to plain over the rounds, and the bytes per document of the field and of
 * the whole index after a force-merge. Optionally profiles the node (Java Flight Recorder) while it loads the default
 * field and the plain text, and attributes the samples to the parts of the work ({@link JfrProfile}).
 */
public final class FieldIndexingBench {

    /** The variants, in the order of the first round. */
    public static final String PLAIN = "plain text";
    public static final String DEFAULT = "text + simhash (default)";
    public static final String NO_SKETCH = "text + simhash, sketch none";

    static final String INDEX = "bench-field-indexing-";
    static final String SETTINGS = "\"settings\": {\"number_of_shards\": 1, \"number_of_replicas\": 0}";
    static final Map<String, String> MAPPINGS = new LinkedHashMap<>();

    static {
        MAPPINGS.put(PLAIN, "{" + SETTINGS + ", \"mappings\": {\"properties\": {\"body\": {\"type\": \"text\"}}}}");
        MAPPINGS.put(DEFAULT, "{" + SETTINGS + ", \"mappings\": {\"properties\": {\"body\": {\"type\": \"text\","
            + " \"fields\": {\"simhash\": {\"type\": \"simhash\"}}}}}}");
        MAPPINGS.put(NO_SKETCH, "{" + SETTINGS + ", \"mappings\": {\"properties\": {\"body\": {\"type\": \"text\","
            + " \"fields\": {\"simhash\": {\"type\": \"simhash\", \"sketch\": \"none\"}}}}}}");
    }

    /** One variant of one language: its docs/s per round, the ratio to plain per round, and its bytes after the force-merge. */
    public record Result(String corpus, String variant, int docs, double mb, double[] roundDocsPerSec, double[] roundRatio,
                         long fieldBytes, long sketchFieldBytes, long indexBytes) {
        double docsPerSec() {
            return Stats.median(roundDocsPerSec);
        }

        double ratio() {
            return Stats.median(roundRatio);
        }
    }

    private final BenchNode node;
    private final Log log;
    private final int bulkDocs;
    public final List<Result> results = new ArrayList<>();
    /** Per language, the profile's text (markdown), when profiled. */
    public final Map<String, String> profiles = new LinkedHashMap<>();
    /** What each corpus is made of (for the report). */
    public final Map<String, String> corpusNotes = new LinkedHashMap<>();

    public FieldIndexingBench(BenchNode node, Log log, int bulkDocs) {
        this.node = node;
        this.log = log;
        this.bulkDocs = bulkDocs;
    }

    /**
     * The documents of a corpus for this bench: English, the mail bodies (cycled when there are fewer than {@code n});
     * Chinese, the help pages' paragraphs (lines of at least {@value #MIN_PARAGRAPH} characters, exact repeats removed).
     */
    public List<String> documents(Corpora.Corpus c, int n) {
        List<String> pool = c.docs();
        String what = "mail bodies";
        if (c.name().equals("zh")) {
            Set<String> paragraphs = new LinkedHashSet<>();
            for (String page : c.docs()) {
                for (String p : page.split("\n")) {
                    String t = p.strip();
                    if (t.length() >= MIN_PARAGRAPH) {
                        paragraphs.add(t);
                    }
                }
            }
            pool = new ArrayList<>(paragraphs);
            what = "paragraphs of help pages";
        }
        List<String> docs = new ArrayList<>(n);
        for (int i = 0; docs.size() < n && !pool.isEmpty(); i++) {
            docs.add(pool.get(i % pool.size()));
        }
        double chars = docs.stream().mapToInt(String::length).average().orElse(0);
        corpusNotes.put(c.name(), String.format(Locale.ROOT, "%,d documents from %,d distinct %s (%s), mean %.0f characters", docs.size(),
            pool.size(), what, c.source(), chars));
        return docs;
    }

    /** Shortest Chinese paragraph (characters) taken as a document. */
    static final int MIN_PARAGRAPH = 20;

    /** Loads the documents into the three variants in a warm-up round and {@code rounds} measured ones, then measures bytes. */
    public void run(String corpus, List<String> docs, int rounds) {
        List<String> sources = sources(docs);
        double mb = sources.stream().mapToLong(s -> s.getBytes(StandardCharsets.UTF_8).length).sum() / 1e6;
        List<String> names = new ArrayList<>(MAPPINGS.keySet());
        log.info(String.format(Locale.ROOT, "field indexing, %s: %,d docs (%.1f MB of JSON) x %d variants x (1 + %d) rounds, bulks of %d, "
            + "2 clients", corpus, docs.size(), mb, names.size(), rounds, bulkDocs));
        Map<String, double[]> dps = new LinkedHashMap<>();
        names.forEach(v -> dps.put(v, new double[rounds]));
        // round -1 warms up the node (JIT, analyzers) and is not counted; each round loads every variant, in rotating order
        for (int round = -1; round < rounds; round++) {
            boolean last = round == rounds - 1;
            for (int vi = 0; vi < names.size(); vi++) {
                String v = names.get((vi + Math.max(0, round)) % names.size());
                String index = index(v);
                double secs = load(index, MAPPINGS.get(v), sources);
                if (round >= 0) {
                    dps.get(v)[round] = sources.size() / secs;
                }
                log.info(String.format(Locale.ROOT, "  %s %-30s %8.0f docs/s %6.2f MB/s", round < 0 ? "warm-up   " : "round " + (round + 1)
                    + "/" + rounds, v, sources.size() / secs, mb / secs));
                if (!last) {
                    node.call("DELETE", "/" + index, null);
                }
            }
        }
        for (String v : names) {
            String index = index(v);
            node.ok("POST", "/" + index + "/_forcemerge?max_num_segments=1", null);
            node.ok("POST", "/" + index + "/_refresh", null);
            long count = ((Number) BenchNode.at(node.ok("GET", "/" + index + "/_count", null).json(), "count")).longValue();
            if (count != sources.size()) {
                throw new IllegalStateException(index + " holds " + count + " documents, expected " + sources.size());
            }
            Map<String, Long> du = node.diskUsage(index, "body.simhash");
            long field = du.getOrDefault("body.simhash", 0L) + du.getOrDefault("body.simhash._minhash", 0L);
            long store = ((Number) BenchNode.at(node.ok("GET", "/" + index + "/_stats/store", null).json(),
                "indices." + index + ".primaries.store.size_in_bytes")).longValue();
            double[] ratio = new double[rounds];
            for (int r = 0; r < rounds; r++) {
                ratio[r] = dps.get(v)[r] / dps.get(PLAIN)[r];
            }
            Result res = new Result(corpus, v, sources.size(), mb, dps.get(v), ratio, field, du.getOrDefault("body.simhash._minhash", 0L), store);
            results.add(res);
            log.info(String.format(Locale.ROOT, "  %-30s median %,.0f docs/s, %.2fx plain; field %.1f B/doc (sketch field %.1f), index %.1f B/doc",
                v, res.docsPerSec(), res.ratio(), field / (double) count, res.sketchFieldBytes() / (double) count, store / (double) count));
            node.call("DELETE", "/" + index, null);
        }
    }

    /**
     * Loads the documents once into a fresh default-field index and once into a plain one, each under Java Flight Recorder
     * ({@code jcmd JFR.start}, sampling every 1 ms where the JVM accepts it), and attributes the samples ({@link JfrProfile}).
     */
    public void profile(String corpus, List<String> docs, Path outDir) throws IOException {
        List<String> sources = sources(docs);
        Map<String, JfrProfile> byVariant = new LinkedHashMap<>();
        for (String v : List.of(DEFAULT, PLAIN)) {
            String index = index(v);
            String name = "field-indexing-" + corpus + "-" + (v.equals(PLAIN) ? "plain" : "default");
            Path file = node.tmpDir().resolve(name + ".jfr");
            node.call("DELETE", "/" + index, null);
            node.ok("PUT", "/" + index, MAPPINGS.get(v));
            // a sample every millisecond where the JVM takes event settings on the command line (JDK 17+), else the profile's 10 ms
            String started = node.jcmd("JFR.start", "name=" + name, "settings=profile", "jdk.ExecutionSample#period=1ms", "filename=" + file);
            if (started == null) {
                started = node.jcmd("JFR.start", "name=" + name, "settings=profile", "filename=" + file);
            }
            if (started == null) {
                log.warn("could not start Java Flight Recorder in the node: no profile");
                return;
            }
            double secs = TwoClients.loadAndRefresh(node, index, sources, bulkDocs);
            node.jcmd("JFR.stop", "name=" + name);
            node.call("DELETE", "/" + index, null);
            Path kept = outDir.resolve(name + ".jfr");
            Files.copy(file, kept, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            JfrProfile p = JfrProfile.read(kept);
            byVariant.put(v, p);
            log.info(String.format(Locale.ROOT, "  profiled %s, %s: %,.0f docs/s under the recorder, %,d samples (%s)", corpus, v,
                sources.size() / secs, p.samples(), kept));
        }
        String md = JfrProfile.compare(byVariant.get(DEFAULT), byVariant.get(PLAIN), sources.size(), DEFAULT, PLAIN);
        profiles.put(corpus, md);
        log.info("profile, " + corpus + ":\n" + md);
    }

    private static String index(String variant) {
        return INDEX + (variant.equals(PLAIN) ? "plain" : variant.equals(DEFAULT) ? "default" : "nosketch");
    }

    private static List<String> sources(List<String> docs) {
        List<String> out = new ArrayList<>(docs.size());
        for (String d : docs) {
            out.add(BenchNode.toJson(Map.of("body", d)));
        }
        return out;
    }

    /** A fresh index with the mapping, loaded; returns the seconds of the load (bulks and the refresh). */
    private double load(String index, String mapping, List<String> sources) {
        node.call("DELETE", "/" + index, null);
        node.ok("PUT", "/" + index, mapping);
        return TwoClients.loadAndRefresh(node, index, sources, bulkDocs);
    }

    /** The report's section. */
    void write(StringBuilder md) {
        md.append("## 3b. Indexing a text field with a simhash multi-field (`--only field-indexing`)\n\n");
        corpusNotes.forEach((c, note) -> md.append("- ").append(c).append(": ").append(note).append('\n'));
        md.append("\nPer language, three 1-shard indices (0 replicas) of `body` (`text`): plain; with a `simhash` multi-field (defaults: ")
            .append("simhash-v2 and its sketch); with `\"sketch\": \"none\"`. The same bulks (").append(bulkDocs)
            .append(" documents, 2 concurrent clients) into each, until refreshed; a warm-up round, then the measured rounds with the ")
            .append("variants in rotating order. docs/s: median round; vs plain: median over the rounds of the round's ratio. Bytes after ")
            .append("a force-merge to one segment: the field from `_disk_usage` (`body.simhash` and its sketch field ")
            .append("`body.simhash._minhash`, all parts) and the whole index from `_stats` store.\n\n");
        md.append("| corpus | variant | docs | docs/s | vs plain | rounds (docs/s) | field B/doc | of it sketch B/doc | index B/doc |\n")
            .append("| --- | --- | ---: | ---: | ---: | --- | ---: | ---: | ---: |\n");
        for (Result r : results) {
            StringBuilder rounds = new StringBuilder();
            for (double d : r.roundDocsPerSec()) {
                rounds.append(rounds.length() == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.0f", d));
            }
            md.append(String.format(Locale.ROOT, "| %s | %s | %,d | %,.0f | %.2fx | %s | %.1f | %.1f | %.1f |\n", r.corpus(), r.variant(), r.docs(),
                r.docsPerSec(), r.ratio(), rounds, r.fieldBytes() / (double) r.docs(), r.sketchFieldBytes() / (double) r.docs(),
                r.indexBytes() / (double) r.docs()));
        }
        md.append('\n');
        profiles.forEach((c, p) -> md.append("### Profile, ").append(c).append("\n\n").append(p).append('\n'));
    }
}
