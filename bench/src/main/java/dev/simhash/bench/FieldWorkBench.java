package dev.simhash.bench;

import dev.simhash.core.FingerprintOptions;
import dev.simhash.core.MinHashSketch;
import dev.simhash.core.SketchBands;
import dev.simhash.core.TextFingerprinter;

import org.apache.lucene.util.BytesRef;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;

/**
 * The {@code simhash} field's own work per document in one thread, without a node: the simhash-v2 fingerprint alone
 * (what a field with {@code "sketch": "none"} computes) against the fingerprint with the sketch's token hashes, the
 * sketch and its band values (the default field), and their parts, on the same documents, interleaved
 * ({@code ./run bench --only field-work}).
 */
final class FieldWorkBench {

    /** One case of one corpus: microseconds per document and bytes this thread allocated per document. */
    record Result(String corpus, String name, double microsPerDoc, double bytesPerDoc) {}

    final List<Result> results = new ArrayList<>();
    long sink;
    private final Log log;
    private final double secondsPerPass;
    private final int passes;

    FieldWorkBench(Log log, double secondsPerPass, int passes) {
        this.log = log;
        this.secondsPerPass = secondsPerPass;
        this.passes = passes;
    }

    void run(String corpus, List<String> docs) {
        TextFingerprinter fp = TextFingerprinter.v2(FingerprintOptions.DEFAULT_MIN_FEATURES);
        MinHashSketch sketch = MinHashSketch.V1;
        Map<String, InterleavedPasses.Case> cases = new LinkedHashMap<>();
        cases.put("fingerprint (sketch none)", () -> {
            long x = 0;
            for (String d : docs) {
                x ^= fp.fingerprint(d).orElse(0);
            }
            return x;
        });
        cases.put("fingerprint + token hashes to the accumulator", () -> {
            long x = 0;
            for (String d : docs) {
                MinHashSketch.Accumulator a = sketch.accumulator();
                x ^= fp.fingerprint(d, a).orElse(0);
            }
            return x;
        });
        cases.put("fingerprint + sketch", () -> {
            long x = 0;
            for (String d : docs) {
                MinHashSketch.Accumulator a = sketch.accumulator();
                OptionalLong h = fp.fingerprint(d, a);
                if (h.isPresent()) {
                    x ^= h.getAsLong() ^ a.sketch()[7];
                }
            }
            return x;
        });
        cases.put("fingerprint + sketch + band values (default field)", () -> {
            long x = 0;
            for (String d : docs) {
                MinHashSketch.Accumulator a = sketch.accumulator();
                OptionalLong h = fp.fingerprint(d, a);
                if (h.isPresent()) {
                    BytesRef[] terms = SketchBands.values(a.sketch());
                    x ^= h.getAsLong() ^ terms[3].bytes[terms[3].offset + 1];
                }
            }
            return x;
        });
        InterleavedPasses ip = new InterleavedPasses(log, secondsPerPass, passes);
        Map<String, InterleavedPasses.Timing> t = ip.run(cases);
        sink ^= ip.sink;
        t.forEach((name, timing) -> {
            Result r = new Result(corpus, name, timing.seconds() * 1e6 / docs.size(), timing.bytesPerPass() / docs.size());
            results.add(r);
            log.info(String.format(Locale.ROOT, "  %s %-52s %8.2f us/doc %8.0f B/doc allocated", corpus, name, r.microsPerDoc(), r.bytesPerDoc()));
        });
    }

    void write(StringBuilder md) {
        md.append("## 3c. The field's own work per document, one thread (`--only field-work`)\n\n");
        md.append("The documents of section 3b, in this JVM (no node): the simhash-v2 fingerprint alone (a field with `\"sketch\": ")
            .append("\"none\"`), then with the token hashes handed to the sketch's accumulator, with the sketch computed, and with its band ")
            .append("terms (what the default field computes per document). Median of interleaved passes.\n\n");
        md.append("| corpus | case | µs/doc | bytes allocated/doc |\n| --- | --- | ---: | ---: |\n");
        for (Result r : results) {
            md.append(String.format(Locale.ROOT, "| %s | %s | %.2f | %,.0f |\n", r.corpus(), r.name(), r.microsPerDoc(), r.bytesPerDoc()));
        }
        md.append('\n');
    }
}
