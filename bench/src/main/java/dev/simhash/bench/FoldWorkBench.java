package dev.simhash.bench;

import dev.simhash.core.MinHashSketch;
import dev.simhash.core.TextFingerprinter;
import dev.simhash.fold.GreedyFolding;
import dev.simhash.threshold.Verification;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;

/**
 * The fold's own work on a window of hits at the default {@code min_similarity} 0.8, in one thread, without a node
 * ({@code ./run bench --only fold-work}): the fold by the candidate radius (13 bits at 0.8: every representative's
 * fingerprint compared, the pairs within the radius verified) against the fold by the sketch's bands as the fold does it (a
 * pass over the first representatives comparing a byte of each band key, then a map from band value to representatives), on
 * the same hits, interleaved, for windows of 100, 300, 1,000 and
 * 10,000 real-like texts ({@link SyntheticTexts}: 40% in clusters of near-duplicates).
 */
final class FoldWorkBench {

    /** One window: microseconds per fold by each rule, and the groups each found. */
    record Result(int window, double radiusMicros, double bandsMicros, int radiusGroups, int bandsGroups) {}

    final List<Result> results = new ArrayList<>();
    long sink;
    private final Log log;
    private final double secondsPerPass;
    private final int passes;

    FoldWorkBench(Log log, double secondsPerPass, int passes) {
        this.log = log;
        this.secondsPerPass = secondsPerPass;
        this.passes = passes;
    }

    void run(int window, long seed) {
        SyntheticTexts texts = new SyntheticTexts(window, seed);
        TextFingerprinter fp = TextFingerprinter.v2(1);
        long[] hashes = new long[window];
        boolean[] hasHash = new boolean[window];
        byte[][] sketches = new byte[window][];
        for (int i = 0; i < window; i++) {
            String t = texts.text(i);
            OptionalLong h = fp.fingerprint(t);
            hasHash[i] = h.isPresent();
            hashes[i] = h.orElse(0);
            sketches[i] = h.isPresent() ? MinHashSketch.V1.sketch(t) : null;
        }
        Verification v = Verification.of(0.8);
        GreedyFolding.Verifier verifier = (i, rep) -> sketches[i] != null && sketches[rep] != null && v.linked(sketches[i], 0, sketches[rep], 0)
            ? Verification.similarity(sketches[i], 0, sketches[rep], 0) : Double.NaN;
        int[] groups = new int[2];
        Map<String, InterleavedPasses.Case> cases = new LinkedHashMap<>();
        cases.put("radius", () -> {
            GreedyFolding f = GreedyFolding.fold(hashes, hasHash, v.radius(), verifier);
            groups[0] = f.groupCount();
            return f.groupCount();
        });
        cases.put("bands", () -> {
            GreedyFolding f = GreedyFolding.foldBySketchBands(hashes, hasHash, sketches, verifier);
            groups[1] = f.groupCount();
            return f.groupCount();
        });
        InterleavedPasses ip = new InterleavedPasses(log, secondsPerPass, passes);
        Map<String, InterleavedPasses.Timing> t = ip.run(cases);
        sink ^= ip.sink;
        Result r = new Result(window, t.get("radius").seconds() * 1e6, t.get("bands").seconds() * 1e6, groups[0], groups[1]);
        results.add(r);
        log.info(String.format(Locale.ROOT, "  window %,6d: radius %,10.1f us (%,d groups), bands %,10.1f us (%,d groups): bands %.2fx the time",
            window, r.radiusMicros(), r.radiusGroups(), r.bandsMicros(), r.bandsGroups(), r.bandsMicros() / r.radiusMicros()));
    }

    void write(StringBuilder md) {
        md.append("## 9. The fold's own work at the default, one thread (`--only fold-work`)\n\n");
        md.append("A window of real-like texts (fingerprints and sketches computed beforehand), folded at `min_similarity` 0.8 by the ")
            .append("candidate radius (13 bits, the fold before candidates came from the bands) and by the bands (what the fold does now, ")
            .append("the way it does it: a pass over the first representatives, then a map from band value). Median of interleaved passes.\n\n");
        md.append("| window | by radius µs | by bands µs | bands / radius | groups by radius | groups by bands |\n")
            .append("| ---: | ---: | ---: | ---: | ---: | ---: |\n");
        for (Result r : results) {
            md.append(String.format(Locale.ROOT, "| %,d | %,.1f | %,.1f | %.2fx | %,d | %,d |\n", r.window(), r.radiusMicros(), r.bandsMicros(),
                r.bandsMicros() / r.radiusMicros(), r.radiusGroups(), r.bandsGroups()));
        }
        md.append('\n');
    }
}
