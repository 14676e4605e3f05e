package dev.simhash.bench;

import dev.simhash.core.SimHashV2;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/** The markdown report of {@link NaturalQuality}. */
final class NaturalReport {

    private NaturalReport() {}

    static String f3(double v) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.3f", v);
    }

    static String rate(long count, long pairs) {
        if (count == 0) {
            return String.format(Locale.ROOT, "0 (< %.0e)", 1.0 / pairs);
        }
        return String.format(Locale.ROOT, "%.1e (%,d)", count / (double) pairs, count);
    }

    static String markdown(List<NaturalQuality.CorpusResult> results, List<NaturalCorpora.Corpus> missing, List<NaturalQuality.Candidate> cands,
                           String command, String started, Machine machine) {
        StringBuilder sb = new StringBuilder();
        sb.append("# Detection quality on natural near-duplicates\n\n");
        sb.append("Command: `").append(command).append("`  \nStarted: ").append(started).append("  \nMachine: ")
            .append(machine.cpu()).append(", ").append(machine.cores()).append(" cores; JDK ").append(machine.jdk()).append("\n\n");
        sb.append("""
            Truth: exact Jaccard similarity of shingle sets, all pairs (All-Pairs prefix filter; pairs sharing no
            shingle in their prefixes have J < 0.5). English: word n-grams of lower-cased letter/digit runs; Chinese:
            character n-grams of the letters and digits after NFKC, lowercase and traditional/variant-to-simplified
            folding. n = 5 for long texts, n = 2 for short texts (a 5-gram of a 7-word subject line or a 28-character
            poem would turn one edit into a loss of most shingles). Near-duplicate: J >= 0.8; grey: 0.5 <= J < 0.8.
            Every pair of fingerprinted documents is compared; a pair within Hamming distance k is a detection.
            P counts grey pairs as false positives (P w/o grey leaves them out); R is over all near-duplicate pairs
            (a document without a fingerprint misses its pairs). "chance" is the number of pairs with J < 0.2 within
            k bits per pair of the corpus (pairs within k <= 10 bits are checked by exact Jaccard). Bit skew: mean over
            the 64 bits of |share of documents with the bit set - 0.5|, and the lowest / highest share.
            MinHash: 128 hash functions over the truth's own shingles, estimated J >= t is a detection (t = 0.8
            the default; pairs with J < 0.5 are taken as never detected at t >= 0.65, P(Bin(128, 0.5) >= 83) < 1e-3
            and far smaller below).

            """);
        if (command.contains("--zh-truth-latin-words")) {
            sb.append("This run's Chinese truth (`--zh-truth-latin-words`): a run of non-Han letters or digits is one unit (a word), Han characters one unit each.\n\n");
        }
        sb.append("Candidates:\n\n");
        for (NaturalQuality.Candidate c : cands) {
            sb.append("- **").append(c.name()).append("**: ").append(c.description()).append('\n');
        }
        sb.append(String.format(Locale.ROOT, "%nv2 default radius: %d bits (long texts), %d bits (short texts); v1 default k = %d.%n%n",
            SimHashV2.DEFAULT_MAX_DISTANCE, SimHashV2.DEFAULT_MAX_DISTANCE_SHORT, NaturalQuality.V1_DEFAULT_K));
        sb.append("## Corpora\n\n| corpus | texts | mean chars | truth shingles | near-dup pairs (J >= 0.8) | grey pairs | source | licence |\n");
        sb.append("| --- | ---: | ---: | --- | ---: | ---: | --- | --- |\n");
        for (NaturalQuality.CorpusResult r : results) {
            NaturalCorpora.Corpus c = r.corpus();
            sb.append(String.format(Locale.ROOT, "| %s | %,d | %.0f | %s %d-grams | %,d | %,d | %s | %s |%n", c.name(), c.docs().size(),
                c.meanChars(), c.lang() == NaturalCorpora.Lang.EN ? "word" : "char", c.shingle(), r.truth().nearPairs, r.truth().greyPairs,
                c.source(), c.licence()));
        }
        for (NaturalCorpora.Corpus c : missing) {
            sb.append("| ").append(c.name()).append(" | unavailable: ").append(c.problem()).append(" | | | | | | |\n");
        }
        sb.append("\n## Headline: v1 at k = 3, v2 at its default radius and at its best k, MinHash 128 at t = 0.8\n\n");
        sb.append("| corpus | v1 P / R / F1 | v2 k | v2 P (w/o grey) / R / F1 | v2 best k: F1 | MinHash P / R / F1 | v2 F1 - MinHash F1 | chance J<0.2 within v2 k | bit skew v1 -> v2 |\n");
        sb.append("| --- | --- | ---: | --- | --- | --- | ---: | --- | --- |\n");
        for (NaturalQuality.CorpusResult r : results) {
            NaturalQuality.Curve v1 = r.curves().get("v1");
            NaturalQuality.Curve v2 = r.curves().get("v2");
            if (v1 == null || v2 == null) {
                continue;
            }
            int k = NaturalQuality.v2DefaultK(r.corpus());
            int b = v2.bestK();
            int d = Arrays.binarySearch(NaturalQuality.MINHASH_T, NaturalQuality.MINHASH_DEFAULT_T);
            NaturalQuality.MinHashResult mh = r.minHash();
            sb.append(String.format(Locale.ROOT, "| %s | %s / %s / %s | %d | %s (%s) / %s / %s | k=%d: %s | %s / %s / %s | %+.3f | %s | %.3f -> %.3f |%n",
                r.corpus().name(), f3(v1.precision(3)), f3(v1.recall(3)), f3(v1.f1(3)), k, f3(v2.precision(k)), f3(v2.precisionNoGrey(k)),
                f3(v2.recall(k)), f3(v2.f1(k)), b, f3(v2.f1(b)), f3(mh.precision()[d]), f3(mh.recall()[d]), f3(mh.f1()[d]),
                v2.f1(k) - mh.f1()[d], rate(v2.chance()[k], v2.allPairs()), v1.meanBitSkew(), v2.meanBitSkew()));
        }
        verified(sb, results);
        WorstGap.markdown(sb, results.stream().map(NaturalQuality.CorpusResult::gaps).filter(g -> g != null).toList());
        sb.append("\n## Summary: F1 at the default radius (v1: k = 3; v2 and candidates: the v2 default) / best F1\n\n| setting |");
        for (NaturalQuality.CorpusResult r : results) {
            sb.append(' ').append(r.corpus().name()).append(" |");
        }
        sb.append("\n| --- |").append(" --- |".repeat(results.size())).append('\n');
        for (NaturalQuality.Candidate c : cands) {
            sb.append("| ").append(c.name()).append(" |");
            for (NaturalQuality.CorpusResult r : results) {
                NaturalQuality.Curve cv = r.curves().get(c.name());
                int k = c.v1() ? NaturalQuality.V1_DEFAULT_K : NaturalQuality.v2DefaultK(r.corpus());
                sb.append(' ').append(f3(cv.f1(k))).append(" / ").append(f3(cv.f1(cv.bestK()))).append(" |");
            }
            sb.append('\n');
        }
        sb.append("| MinHash 128 (t = 0.8 / best t) |");
        for (NaturalQuality.CorpusResult r : results) {
            double[] f = r.minHash().f1();
            sb.append(' ').append(f3(f[Arrays.binarySearch(NaturalQuality.MINHASH_T, NaturalQuality.MINHASH_DEFAULT_T)])).append(" / ")
                .append(f3(Arrays.stream(f).max().orElse(0))).append(" |");
        }
        sb.append("\n\n");
        for (NaturalQuality.CorpusResult r : results) {
            NaturalCorpora.Corpus c = r.corpus();
            sb.append("## ").append(c.name()).append(": ").append(c.description()).append("\n\n");
            sb.append(String.format(Locale.ROOT, "%,d texts (mean %.0f characters), %,d near-duplicate pairs, %,d grey pairs; %.0f s.%n%n",
                c.docs().size(), c.meanChars(), r.truth().nearPairs, r.truth().greyPairs, r.seconds()));
            sb.append("| setting | k | P | P w/o grey | R | R incl. grey | F1 | chance (J<0.2) | best k | P | R | F1 | bit skew (min-max share) | fingerprinted | fingerprint time |\n");
            sb.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: |\n");
            for (NaturalQuality.Candidate cand : cands) {
                NaturalQuality.Curve cv = r.curves().get(cand.name());
                int k = cand.v1() ? NaturalQuality.V1_DEFAULT_K : NaturalQuality.v2DefaultK(c);
                int bk = cv.bestK();
                sb.append(String.format(Locale.ROOT, "| %s | %d | %s | %s | %s | %s | %s | %s | %d | %s | %s | %s | %.3f (%.2f-%.2f) | %,d | %.1f s |%n", cand.name(), k,
                    f3(cv.precision(k)), f3(cv.precisionNoGrey(k)), f3(cv.recall(k)), f3(cv.recallGrey(k, r.truth().greyPairs)), f3(cv.f1(k)),
                    rate(cv.chance()[k], cv.allPairs()), bk, f3(cv.precision(bk)), f3(cv.recall(bk)), f3(cv.f1(bk)), cv.meanBitSkew(),
                    cv.minShare(), cv.maxShare(), cv.fingerprinted(), cv.seconds()));
            }
            NaturalQuality.MinHashResult mh = r.minHash();
            int best = 0;
            for (int x = 1; x < mh.f1().length; x++) {
                if (mh.f1()[x] > mh.f1()[best]) {
                    best = x;
                }
            }
            int d = Arrays.binarySearch(NaturalQuality.MINHASH_T, NaturalQuality.MINHASH_DEFAULT_T);
            sb.append(String.format(Locale.ROOT, "| MinHash 128 | t=0.8 | %s | | %s | | %s | | t=%.2f | %s | %s | %s | | |%n%n", f3(mh.precision()[d]),
                f3(mh.recall()[d]), f3(mh.f1()[d]), NaturalQuality.MINHASH_T[best], f3(mh.precision()[best]), f3(mh.recall()[best]), f3(mh.f1()[best])));
            sb.append("Median Hamming distance of the truth's pairs by Jaccard band (near-duplicates J >= 0.8 against grey pairs):\n\n");
            sb.append("| setting | J >= 0.9 | 0.8 <= J < 0.9 | 0.65 <= J < 0.8 | 0.5 <= J < 0.65 |\n| --- | ---: | ---: | ---: | ---: |\n");
            for (String name : List.of("v1", "v2")) {
                NaturalQuality.Curve cv = r.curves().get(name);
                if (cv != null) {
                    double[] m = cv.bandMedians();
                    sb.append(String.format(Locale.ROOT, "| %s | %.0f | %.0f | %.0f | %.0f |%n", name, m[0], m[1], m[2], m[3]));
                }
            }
            sb.append('\n');
            NaturalQuality.Curve v2 = r.curves().get("v2");
            if (v2 != null && !v2.chanceExamples().isEmpty()) {
                sb.append("v2 pairs with J < 0.2 within the default radius (examples):\n\n");
                for (String e : v2.chanceExamples()) {
                    sb.append("- ").append(e.replace("|", "\\|")).append('\n');
                }
                sb.append('\n');
            }
            sb.append("Recall and precision by k (v1 | v2):\n\n| k |");
            for (int k = 0; k <= NaturalQuality.KMAX; k++) {
                sb.append(' ').append(k).append(" |");
            }
            sb.append("\n| --- |").append(" ---: |".repeat(NaturalQuality.KMAX + 1)).append('\n');
            for (String name : List.of("v1", "v2")) {
                NaturalQuality.Curve cv = r.curves().get(name);
                if (cv == null) {
                    continue;
                }
                sb.append("| ").append(name).append(" P |");
                for (int k = 0; k <= NaturalQuality.KMAX; k++) {
                    sb.append(' ').append(f3(cv.precision(k))).append(" |");
                }
                sb.append("\n| ").append(name).append(" R |");
                for (int k = 0; k <= NaturalQuality.KMAX; k++) {
                    sb.append(' ').append(f3(cv.recall(k))).append(" |");
                }
                sb.append('\n');
            }
            sb.append('\n');
            if (!r.edits().isEmpty()) {
                sb.append("Synthetic view (second view): ").append(NaturalQuality.EDIT_SAMPLE)
                    .append(" sampled texts with words (smartcn units) inserted, deleted or replaced at a rate; median distance to the original, and share within the setting's default radius:\n\n| setting |");
                for (double rate : NaturalQuality.EDIT_RATES) {
                    sb.append(String.format(Locale.ROOT, " %.0f%% median | %.0f%% within |", rate * 100, rate * 100));
                }
                sb.append("\n| --- |").append(" ---: | ---: |".repeat(NaturalQuality.EDIT_RATES.length)).append('\n');
                r.edits().forEach((name, ev) -> {
                    sb.append("| ").append(name).append(" |");
                    for (int x = 0; x < NaturalQuality.EDIT_RATES.length; x++) {
                        sb.append(String.format(Locale.ROOT, " %.0f | %s |", ev.medianDistance()[x], f3(ev.withinDefault()[x])));
                    }
                    sb.append('\n');
                });
                sb.append('\n');
            }
        }
        return sb.toString();
    }

    /** Best F1 of the MinHash 128 baseline over its thresholds. */
    static double minHashBest(NaturalQuality.CorpusResult r) {
        return Arrays.stream(r.minHash().f1()).max().orElse(0);
    }

    /**
     * The corpora failing the choice criteria for a variant at threshold index t: long corpora need P w/o grey >=
     * {@value #MIN_P_NO_GREY} and R >= {@value #MIN_RECALL_LONG}; every corpus needs F1 within {@value #MAX_F1_GAP} of
     * MinHash 128's best F1.
     */
    static List<String> failing(List<NaturalQuality.CorpusResult> results, int variant, int t) {
        List<String> out = new java.util.ArrayList<>();
        for (NaturalQuality.CorpusResult r : results) {
            Verified.Scores s = r.verified().scores().get(variant);
            boolean ok = s.f1(t) >= minHashBest(r) - MAX_F1_GAP;
            if (!r.corpus().shortTexts()) {
                ok &= s.precisionNoGrey(t) >= MIN_P_NO_GREY && s.recall(t) >= MIN_RECALL_LONG;
            }
            if (!ok) {
                out.add(r.corpus().name());
            }
        }
        return out;
    }

    static final double MIN_P_NO_GREY = 0.95;
    static final double MIN_RECALL_LONG = 0.90;
    static final double MAX_F1_GAP = 0.05;

    static String pct(long part, long all) {
        return all == 0 ? "-" : String.format(Locale.ROOT, "%.3f", part / (double) all);
    }

    /** The verified mode's sections: variants at the default threshold, the candidate stage, and each corpus across thresholds. */
    static void verified(StringBuilder sb, List<NaturalQuality.CorpusResult> all) {
        List<NaturalQuality.CorpusResult> results = all.stream().filter(r -> r.verified() != null).toList();
        if (results.isEmpty()) {
            return;
        }
        double[] ts = Verified.THRESHOLDS;
        int d = Verified.defaultIndex();
        List<Verified.Scores> first = results.get(0).verified().scores();
        sb.append(String.format(Locale.ROOT, "%n## Verified mode (min_similarity): v2 candidates within the radius, sketch similarity >= s%n%n"));
        sb.append("""
            A pair is reported iff the Hamming distance of its simhash-v2 fingerprints is <= `CandidateRadius.radius(s, w)` (w: the
            variant's shingle size, 2 for the length-adaptive variant; rows marked `r(s,2)`: the corrected model, w = 2 whatever the
            sketch's shingle size) and its minhash sketches (`MinHashSketch(w, bins, bits)`, the
            production class) estimate a Jaccard similarity >= s; rows `bands from 0.75` (the rule as released): from s = 0.75 on, a
            pair is a candidate iff its two sketches hold the same 16 bits in one of their 32 bands, at any Hamming distance
            (`SketchBands`). P (grey counted wrong), P w/o grey, R and F1 are against the same truth
            as above (near: J >= 0.8 of the truth's shingles). Variants: `wN Bxb` = N-token shingles of simhash-v2 tokens, B bins of b bits
            (all 64 bytes); `wN exact J` = no sketch, the exact Jaccard of the same shingle sets (what a perfect estimator would
            report: the gap to it is the sketch's noise, the gap from it to the truth is the shingling's); `w2/5@N` = texts of fewer than N (default %d) tokens shingled by 2, others by 5 (one sketch per text, so a pair across
            the limit is never reported). Released parameters: `%s`. Criteria: on the long corpora P w/o grey >= %.2f and R >= %.2f; on
            every corpus F1 >= MinHash 128's best F1 - %.2f.

            """.formatted(Verified.ADAPTIVE_TOKENS, Verified.released().get(0).name(), MIN_P_NO_GREY, MIN_RECALL_LONG, MAX_F1_GAP));
        sb.append(String.format(Locale.ROOT, "### At the default threshold s = %.2f: P / P w/o grey / R / F1%n%n| variant | bytes | radius (r) |",
            ts[d]));
        for (NaturalQuality.CorpusResult r : results) {
            sb.append(' ').append(r.corpus().name()).append(" |");
        }
        sb.append(" fails the criteria on | thresholds meeting the criteria |\n| --- | ---: | ---: |").append(" --- |".repeat(results.size()))
            .append(" --- | --- |\n");
        for (int v = 0; v < first.size(); v++) {
            Verified.Scores s0 = first.get(v);
            sb.append("| ").append(s0.variant().released() && s0.bands() ? "**" + s0.label() + "** (released)" : s0.label()).append(" | ")
                .append(s0.variant().exact() ? "exact" : String.valueOf(s0.variant().bytes())).append(" | ").append(s0.rule(d)).append(" |");
            for (NaturalQuality.CorpusResult r : results) {
                Verified.Scores s = r.verified().scores().get(v);
                sb.append(' ').append(f3(s.precision(d))).append(" / ").append(f3(s.precisionNoGrey(d))).append(" / ").append(f3(s.recall(d)))
                    .append(" / ").append(f3(s.f1(d))).append(" |");
            }
            List<String> fail = failing(results, v, d);
            sb.append(' ').append(fail.isEmpty() ? "none" : String.join(", ", fail)).append(" |");
            List<String> okT = new java.util.ArrayList<>();
            for (int t = 0; t < ts.length; t++) {
                if (failing(results, v, t).isEmpty()) {
                    okT.add(String.format(Locale.ROOT, "%.2f", ts[t]));
                }
            }
            sb.append(' ').append(okT.isEmpty() ? "none" : String.join(", ", okT)).append(" |\n");
        }
        sb.append("| v2 alone at its default radius | 8 | 6 / 7 |");
        for (NaturalQuality.CorpusResult r : results) {
            Verified.Plain p = r.verified().v2();
            sb.append(' ').append(f3(p.precision())).append(" / ").append(f3(p.precisionNoGrey())).append(" / ").append(f3(p.recall())).append(" / ")
                .append(f3(p.f1())).append(" |");
        }
        sb.append(" | |\n| MinHash 128 (64-bit minima), best t: F1 | 1024 | |");
        for (NaturalQuality.CorpusResult r : results) {
            double[] f = r.minHash().f1();
            int b = 0;
            for (int x = 1; x < f.length; x++) {
                if (f[x] > f[b]) {
                    b = x;
                }
            }
            sb.append(String.format(Locale.ROOT, " t=%.2f: %s / - / %s / **%s** |", NaturalQuality.MINHASH_T[b], f3(r.minHash().precision()[b]),
                f3(r.minHash().recall()[b]), f3(f[b])));
        }
        sb.append(" | |\n\n");

        sb.append("### F1 (grey counted wrong) by threshold, per variant and corpus\n\n| variant | corpus |");
        for (double t : ts) {
            sb.append(String.format(Locale.ROOT, " %.2f |", t));
        }
        sb.append(" MinHash best |\n| --- | --- |").append(" ---: |".repeat(ts.length)).append(" ---: |\n");
        for (int v = 0; v < first.size(); v++) {
            for (NaturalQuality.CorpusResult r : results) {
                Verified.Scores s = r.verified().scores().get(v);
                sb.append("| ").append(s.label()).append(" | ").append(r.corpus().name()).append(" |");
                for (int t = 0; t < ts.length; t++) {
                    sb.append(' ').append(f3(s.f1(t))).append(" |");
                }
                sb.append(' ').append(f3(minHashBest(r))).append(" |\n");
            }
        }
        sb.append('\n');

        sb.append("""
            ### Candidate stage: does the radius model hold?

            For the truth's pairs (J >= 0.5, both texts fingerprinted) with J >= s: the share within `CandidateRadius.radius(s, w)` for
            w = 2..5 (target >= %.2f); the same for the pairs *at* the threshold (s <= J < s + %.2f); the empirical radius that keeps
            %.0f%% of the pairs with J >= s and of those at the threshold; the mean distance of the pairs at the threshold beside
            the model's expected distance 64 p(s, w); how many v2 pairs of the corpus (any J) are within r(s, 5) and r(s, 2): the
            candidates to verify.

            """.formatted(Verified.TARGET_CANDIDATE_RECALL, Verified.BAND, 100 * Verified.TARGET_CANDIDATE_RECALL));
        sb.append("| corpus | s | pairs J >= s | r(s, w) w=2/3/4/5 | recall J >= s w=2/3/4/5 | pairs at s | recall at s w=2/3/4/5 | r95 J >= s | r95 at s | mean d at s | 64 p(s, w) w=2/5 | v2 pairs within r(s,5) / r(s,2) |\n");
        sb.append("| --- | ---: | ---: | --- | --- | ---: | --- | ---: | ---: | ---: | --- | --- |\n");
        for (NaturalQuality.CorpusResult r : results) {
            Verified.CandidateStage c = r.verified().candidates();
            for (int t = 0; t < ts.length; t++) {
                StringBuilder radii = new StringBuilder();
                StringBuilder rec = new StringBuilder();
                StringBuilder recB = new StringBuilder();
                for (int wi = 0; wi < Verified.SHINGLE_SIZES.length; wi++) {
                    String sep = wi == 0 ? "" : " / ";
                    radii.append(sep).append(c.radius()[wi][t]);
                    rec.append(sep).append(f3(c.recall(wi, t)));
                    recB.append(sep).append(f3(c.bandRecall(wi, t)));
                }
                long[] within = r.verified().pairsWithin();
                sb.append(String.format(Locale.ROOT, "| %s | %.2f | %,d | %s | %s | %,d | %s | %d | %d | %.1f | %.1f / %.1f | %,d / %,d |%n", r.corpus().name(),
                    ts[t], c.atLeast()[t], radii, rec, c.band()[t], recB, c.r95AtLeast()[t], c.r95Band()[t], c.meanBandDistance()[t],
                    64 * dev.simhash.core.CandidateRadius.bitFlipProbability(ts[t], 2), 64 * dev.simhash.core.CandidateRadius.bitFlipProbability(ts[t], 5),
                    within[c.radius()[3][t]], within[c.radius()[0][t]]));
            }
        }
        sb.append('\n');

        for (NaturalQuality.CorpusResult r : results) {
            Verified.Result vr = r.verified();
            sb.append(String.format(Locale.ROOT, "### %s: each variant by threshold (P / P w/o grey / R / F1)%n%n", r.corpus().name()));
            sb.append(String.format(Locale.ROOT, "%,d v2 pairs within %d bits (every candidate of every threshold); %.1f s. v2 alone at k = %d: P %s (w/o grey %s) R %s F1 %s; MinHash 128 best F1 %s.%n%n",
                vr.candidatePairs(), Verified.MAX_D, vr.seconds(), vr.v2().k(), f3(vr.v2().precision()), f3(vr.v2().precisionNoGrey()), f3(vr.v2().recall()),
                f3(vr.v2().f1()), f3(minHashBest(r))));
            sb.append("| variant |");
            for (double t : ts) {
                sb.append(String.format(Locale.ROOT, " %.2f |", t));
            }
            sb.append("\n| --- |").append(" --- |".repeat(ts.length)).append('\n');
            for (Verified.Scores s : vr.scores()) {
                sb.append("| ").append(s.label()).append(" |");
                for (int t = 0; t < ts.length; t++) {
                    sb.append(String.format(Locale.ROOT, " %s / %s / %s / %s |", f3(s.precision(t)), f3(s.precisionNoGrey(t)), f3(s.recall(t)), f3(s.f1(t))));
                }
                sb.append('\n');
            }
            sb.append('\n');
        }
    }
}
