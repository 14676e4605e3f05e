package dev.simhash.bench;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The execution samples of a Java Flight Recorder recording of a node, attributed to the parts of indexing work: each
 * sample goes to the first rule of {@link #category} that its stack matches (the sketch's steps by any frame on the
 * stack, the rest by the innermost frame that is not the JDK's). Comparing the profile of a load with the simhash field
 * with that of the same load without it shows where the field's extra time goes, Lucene's share included.
 */
final class JfrProfile {

    /** Categories in report order. */
    static final List<String> CATEGORIES = List.of(
        "sketch: finish (densify, pack bits)",
        "sketch: accumulator allocation (long[512] bins)",
        "sketch: shingle hashing, bins",
        "sketch: band values (SketchBands.values)",
        "fingerprint: folding (CharFolding)",
        "fingerprint: tokenizing",
        "fingerprint: features (hash tables, XXH3)",
        "fingerprint: accumulation (SimHashAccumulator)",
        "simhash: other (mapper, Lucene fields)",
        "Lucene: text analysis",
        "Lucene: terms hash (in-RAM postings)",
        "Lucene: doc values",
        "Lucene: stored fields",
        "Lucene: flush (writing segments)",
        "Lucene: merges",
        "Lucene: other",
        "JSON parsing",
        "ES: other (bulk, mapping, translog)",
        "network",
        "JDK / other");

    private final Map<String, Long> byCategory = new LinkedHashMap<>();
    private final Map<String, Long> topFrames = new HashMap<>();
    private final Map<String, Long> simhashInclusive = new HashMap<>();
    private final Map<String, Long> allocation = new HashMap<>();
    private long samples;
    private long allocated;
    private long gcCount;
    private Duration gcPause = Duration.ZERO;

    private JfrProfile() {
        CATEGORIES.forEach(c -> byCategory.put(c, 0L));
    }

    long samples() {
        return samples;
    }

    static JfrProfile read(Path file) throws IOException {
        JfrProfile p = new JfrProfile();
        try (RecordingFile f = new RecordingFile(file)) {
            while (f.hasMoreEvents()) {
                RecordedEvent e = f.readEvent();
                String type = e.getEventType().getName();
                switch (type) {
                    case "jdk.ExecutionSample" -> p.sample(e.getStackTrace());
                    case "jdk.ObjectAllocationSample" -> p.allocation(e);
                    case "jdk.GarbageCollection" -> {
                        p.gcCount++;
                        p.gcPause = p.gcPause.plus(e.getDuration("sumOfPauses"));
                    }
                    default -> {
                    }
                }
            }
        }
        return p;
    }

    private void sample(RecordedStackTrace st) {
        if (st == null) {
            return;
        }
        List<RecordedFrame> frames = st.getFrames();
        samples++;
        byCategory.merge(category(frames), 1L, Long::sum);
        if (!frames.isEmpty()) {
            topFrames.merge(name(frames.get(0)), 1L, Long::sum);
        }
        Set<String> seen = new HashSet<>();
        for (RecordedFrame fr : frames) {
            String n = name(fr);
            if (n.startsWith("dev.simhash.") && seen.add(n)) {
                simhashInclusive.merge(n, 1L, Long::sum);
            }
        }
    }

    private void allocation(RecordedEvent e) {
        RecordedStackTrace st = e.getStackTrace();
        long w = e.getLong("weight");
        allocated += w;
        if (st == null) {
            return;
        }
        for (RecordedFrame fr : st.getFrames()) {
            String n = name(fr);
            if (n.startsWith("dev.simhash.")) {
                String cls = e.getClass("objectClass") == null ? "?" : e.getClass("objectClass").getName();
                allocation.merge(cls + " in " + n, w, Long::sum);
                return;
            }
        }
    }

    private static String name(RecordedFrame f) {
        return f.getMethod().getType().getName() + "." + f.getMethod().getName();
    }

    /** The sample's category: the first rule its stack (innermost frame first) matches. */
    static String category(List<RecordedFrame> frames) {
        List<String> names = new ArrayList<>(frames.size());
        for (RecordedFrame f : frames) {
            names.add(name(f));
        }
        return categoryOf(names);
    }

    static String categoryOf(List<String> names) {
        if (any(names, "org.apache.lucene.index.DocumentsWriterPerThread.flush", "org.apache.lucene.index.IndexingChain.flush")) {
            return "Lucene: flush (writing segments)";
        }
        if (any(names, "org.apache.lucene.index.IndexWriter.merge", "org.apache.lucene.index.SegmentMerger.")) {
            return "Lucene: merges";
        }
        if (any(names, "dev.simhash.core.MinHashSketch.finish")) {
            return "sketch: finish (densify, pack bits)";
        }
        if (any(names, "dev.simhash.core.MinHashSketch$Shingles.<init>", "dev.simhash.core.MinHashSketch$Accumulator.<init>")) {
            return "sketch: accumulator allocation (long[512] bins)";
        }
        if (any(names, "dev.simhash.core.MinHashSketch")) {
            return "sketch: shingle hashing, bins";
        }
        if (any(names, "dev.simhash.core.SketchBands.")) {
            return "sketch: band values (SketchBands.values)";
        }
        for (String n : names) {
            if (n.startsWith("java.") || n.startsWith("jdk.") || n.startsWith("sun.")) {
                continue;
            }
            if (n.startsWith("dev.simhash.core.CharFolding")) {
                return "fingerprint: folding (CharFolding)";
            }
            if (n.startsWith("dev.simhash.core.FastWordTokenizer") || n.startsWith("dev.simhash.core.AsciiWordTokenizer")
                || n.startsWith("dev.simhash.core.ScriptAwareTokenizer") || n.startsWith("dev.simhash.core.AnalyzerTokens")) {
                return "fingerprint: tokenizing";
            }
            if (n.startsWith("dev.simhash.core.ByteFeatures") || n.startsWith("dev.simhash.core.PairIndex")
                || n.startsWith("dev.simhash.core.FeatureBag") || n.startsWith("dev.simhash.core.StringFeatures")
                || n.startsWith("dev.simhash.core.Utf8FeatureHasher") || n.startsWith("dev.simhash.core.SimHash.")
                || n.startsWith("com.dynatrace.hash4j")) {
                return "fingerprint: features (hash tables, XXH3)";
            }
            if (n.startsWith("dev.simhash.core.SimHashAccumulator")) {
                return "fingerprint: accumulation (SimHashAccumulator)";
            }
            if (n.startsWith("dev.simhash.")) {
                return "simhash: other (mapper, Lucene fields)";
            }
            if (n.startsWith("org.apache.lucene.analysis") || n.contains("StandardTokenizer")) {
                return "Lucene: text analysis";
            }
            if (n.startsWith("org.apache.lucene.index.TermsHash") || n.startsWith("org.apache.lucene.index.FreqProxTermsWriter")
                || n.startsWith("org.apache.lucene.util.BytesRefHash") || n.startsWith("org.apache.lucene.util.ByteBlockPool")
                || n.startsWith("org.apache.lucene.util.IntBlockPool") || n.startsWith("org.apache.lucene.index.ByteSlicePool")
                || n.startsWith("org.apache.lucene.util.StringHelper")) {
                return "Lucene: terms hash (in-RAM postings)";
            }
            if (n.contains("DocValuesWriter") || n.contains("PackedLongValues") || n.contains("DocValues")) {
                return "Lucene: doc values";
            }
            if (n.contains("StoredFields")) {
                return "Lucene: stored fields";
            }
            if (n.startsWith("org.apache.lucene")) {
                return "Lucene: other";
            }
            if (n.startsWith("com.fasterxml.jackson") || n.startsWith("org.elasticsearch.xcontent")) {
                return "JSON parsing";
            }
            if (n.startsWith("io.netty") || n.startsWith("org.elasticsearch.transport") || n.startsWith("org.elasticsearch.http")) {
                return "network";
            }
            if (n.startsWith("org.elasticsearch")) {
                return "ES: other (bulk, mapping, translog)";
            }
        }
        return "JDK / other";
    }

    private static boolean any(List<String> names, String... prefixes) {
        for (String n : names) {
            for (String p : prefixes) {
                if (n.startsWith(p)) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * A markdown comparison: per category the samples per 1,000 documents of the load with the field and of the plain load,
     * their difference and its share of the whole difference; then the field load's top innermost frames, the simhash
     * methods' inclusive shares and where the plugin allocates.
     */
    static String compare(JfrProfile with, JfrProfile plain, int docs, String withName, String plainName) {
        StringBuilder md = new StringBuilder();
        double k = 1000.0 / docs;
        double diffTotal = (with.samples - plain.samples) * k;
        md.append(String.format(Locale.ROOT, "Execution samples (all Java threads of the node) per 1,000 documents: %s %.1f, %s %.1f, "
            + "difference %.1f (%.0f%% more). GC: %d collections, %d ms paused (with the field) vs %d, %d ms (plain).%n%n", withName,
            with.samples * k, plainName, plain.samples * k, diffTotal, 100 * diffTotal / Math.max(1e-9, plain.samples * k), with.gcCount,
            with.gcPause.toMillis(), plain.gcCount, plain.gcPause.toMillis()));
        md.append("| part | with the field /1k docs | % of its samples | plain /1k docs | difference /1k docs | % of the difference |\n")
            .append("| --- | ---: | ---: | ---: | ---: | ---: |\n");
        for (String c : CATEGORIES) {
            long w = with.byCategory.get(c);
            long p = plain.byCategory.get(c);
            if (w == 0 && p == 0) {
                continue;
            }
            double d = (w - p) * k;
            md.append(String.format(Locale.ROOT, "| %s | %.1f | %.1f%% | %.1f | %+.1f | %.1f%% |%n", c, w * k, 100.0 * w / with.samples, p * k, d,
                100 * d / Math.max(1e-9, diffTotal)));
        }
        md.append("\nTop innermost frames with the field (share of its samples):\n\n");
        top(with.topFrames, 20).forEach(e -> md.append(String.format(Locale.ROOT, "- %.1f%% %s%n", 100.0 * e.getValue() / with.samples,
            e.getKey())));
        md.append("\nsimhash methods on the stack with the field (inclusive share of its samples):\n\n");
        top(with.simhashInclusive, 20).forEach(e -> md.append(String.format(Locale.ROOT, "- %.1f%% %s%n", 100.0 * e.getValue() / with.samples,
            e.getKey())));
        if (with.allocated > 0) {
            md.append(String.format(Locale.ROOT, "%nAllocation (sampled, weighted) with the field: %.0f KB per document in all, %.0f KB plain; "
                + "the plugin's biggest (by the first simhash frame):%n%n", with.allocated / 1024.0 / docs, plain.allocated / 1024.0 / docs));
            top(with.allocation, 10).forEach(e -> md.append(String.format(Locale.ROOT, "- %.0f B/doc %s%n", e.getValue() / (double) docs,
                e.getKey())));
        }
        return md.toString();
    }

    private static List<Map.Entry<String, Long>> top(Map<String, Long> m, int n) {
        return m.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed()).limit(n).toList();
    }
}
