package dev.simhash.query;

import dev.simhash.compat.lucene.CompatWeight;
import dev.simhash.core.SketchBands;

import org.apache.lucene.document.BinaryPoint;

import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.Explanation;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.MatchNoDocsQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.QueryVisitor;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.ScorerSupplier;
import org.apache.lucene.search.Weight;
import org.apache.lucene.util.BytesRef;

import java.io.IOException;
import java.util.Arrays;
import java.util.Objects;
import java.util.function.LongPredicate;

/**
 * A {@code min_similarity} query at a threshold the sketch bands cover ({@link SketchBands#covers}): per segment, the
 * candidates are the documents whose band points in the sketch field hold one of the query sketch's
 * {@value SketchBands#BANDS} band values, and a candidate matches when its stored sketch's estimated similarity reaches
 * the threshold ({@link SketchCheck}). Scored boost * similarity. The fingerprint plays no part: at these thresholds the
 * bands keep more of the pairs at the threshold than the fingerprint's candidate radius, and a band value is held only by
 * the documents that share five of its bins' minima, where the radius would probe hundreds of block values.
 */
final class SketchBandQuery extends Query {

    private final SketchCheck check;
    /** The band values looked up: the query sketch's, less those no document of the shard holds. */
    private final byte[][] values;
    /** The candidates: the documents holding one of those band values among their band points. */
    private final Query bands;

    SketchBandQuery(SketchCheck check) {
        this(check, values(check, null));
    }

    private SketchBandQuery(SketchCheck check, byte[][] values) {
        this.check = Objects.requireNonNull(check);
        this.values = values;
        this.bands = BinaryPoint.newSetQuery(check.sketchField(), values);
    }

    /**
     * The query of {@code check}, looking up only the band values that {@code held} says some document of the shard may
     * hold (null: all of them); a query that matches nothing when it says none is.
     */
    static Query of(SketchCheck check, LongPredicate held) {
        byte[][] values = values(check, held);
        if (values.length == 0) {
            return new MatchNoDocsQuery("no document of this shard holds one of the query sketch's " + SketchBands.BANDS + " band values");
        }
        return new SketchBandQuery(check, values);
    }

    private static byte[][] values(SketchCheck check, LongPredicate held) {
        BytesRef[] terms = check.bandValues();
        byte[][] values = new byte[terms.length][];
        int kept = 0;
        for (BytesRef term : terms) {
            byte[] value = BytesRef.deepCopyOf(term).bytes;
            if (held == null || held.test(SketchBands.longValue(value, 0))) {
                values[kept++] = value;
            }
        }
        return Arrays.copyOf(values, kept);
    }

    SketchCheck check() {
        return check;
    }

    @Override
    public CompatWeight createWeight(IndexSearcher searcher, ScoreMode scoreMode, float boost) throws IOException {
        // the band points' own weight: Lucene's point set query, scores not needed
        Weight candidates = bands.createWeight(searcher, ScoreMode.COMPLETE_NO_SCORES, 1f);
        return new CompatWeight(this) {
            @Override
            public ScorerSupplier scorerSupplier(LeafReaderContext context) throws IOException {
                LeafReader reader = context.reader();
                BinaryDocValues sketches = check.sketches(reader);
                Scorer shared = sketches == null ? null : candidates.scorer(context);
                if (shared == null) {
                    return null;
                }
                return supplier(new BandScorer(this, reader, shared.iterator(), sketches, boost));
            }

            @Override
            public Explanation explain(LeafReaderContext context, int doc) throws IOException {
                BinaryDocValues sketches = check.sketches(context.reader());
                byte[] stored = check.storedSketch(sketches, doc);
                if (stored == null) {
                    return Explanation.noMatch("no similarity sketch in [" + check.sketchField() + "]");
                }
                int equal = check.equalBins(stored);
                double s = check.similarity(equal);
                // the band terms are derived from the stored sketch (mapper), so counting on the sketches is what the postings give
                int shared = check.sharedBands(stored);
                if (shared == 0) {
                    return Explanation.noMatch("the document's sketch shares none of the query sketch's " + SketchBands.BANDS
                        + " band keys, which a candidate at min_similarity [" + check.minSimilarity() + "] shares one of (estimated "
                        + "similarity [" + s + "])");
                }
                if (!check.passes(equal)) {
                    return Explanation.noMatch("estimated similarity [" + s + "] < min_similarity [" + check.minSimilarity() + "]");
                }
                return Explanation.match((float) (boost * s), "simhash: the sketches share " + shared + " of "
                    + SketchBands.BANDS + " band keys and estimated similarity [" + s + "] >= min_similarity [" + check.minSimilarity() + "], computed as boost * "
                    + "similarity from:",
                    Explanation.match(boost, "boost"),
                    Explanation.match((float) s, "estimated Jaccard similarity of the query's and the document's sketches"));
            }

            @Override
            public boolean isCacheable(LeafReaderContext ctx) {
                return candidates.isCacheable(ctx) && DocValues.isCacheable(ctx, check.sketchField());
            }
        };
    }

    /** Iterates the candidates and verifies each one's sketch; scores by the estimated similarity. */
    private final class BandScorer extends VerifyingScorer {
        private final BinaryDocValues sketches;
        private final LeafReader reader;
        private int lastDoc = -1;
        private double lastSimilarity;

        BandScorer(CompatWeight weight, LeafReader reader, DocIdSetIterator approximation, BinaryDocValues sketches, float boost) {
            super(weight, approximation, boost, 16); // a 64-byte read and eight popcounts
            this.reader = reader;
            this.sketches = sketches;
        }

        @Override
        protected boolean verify(int doc) throws IOException {
            lastDoc = doc;
            int equal = check.equalBins(sketches, doc);
            lastSimilarity = check.similarity(equal);
            return check.passes(equal);
        }

        @Override
        public float score() throws IOException {
            if (docID() != lastDoc) {
                // positioned without matches() (allowed by some callers): read the sketch with a fresh iterator
                lastDoc = docID();
                lastSimilarity = check.similarity(check.equalBins(check.sketches(reader), lastDoc));
            }
            return (float) (boost * Math.max(0, lastSimilarity));
        }
    }

    @Override
    public void visit(QueryVisitor visitor) {
        if (visitor.acceptField(check.sketchField())) {
            visitor.visitLeaf(this);
        }
    }

    @Override
    public String toString(String field) {
        return "simhash_bands(" + check.sketchField() + ", " + check + ")";
    }

    @Override
    public boolean equals(Object other) {
        return sameClassAs(other) && check.equals(((SketchBandQuery) other).check)
            && Arrays.deepEquals(values, ((SketchBandQuery) other).values);
    }

    @Override
    public int hashCode() {
        return Objects.hash(classHash(), check, Arrays.deepHashCode(values));
    }
}
