package dev.simhash.query;

import dev.simhash.compat.lucene.CompatWeight;
import dev.simhash.core.SketchBands;

import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.Explanation;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.QueryVisitor;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.ScorerSupplier;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.DocIdSetBuilder;

import java.io.IOException;
import java.util.Objects;

/**
 * A {@code min_similarity} query at a threshold the sketch bands cover ({@link SketchBands#covers}): per segment, the
 * candidates are the postings of the query sketch's {@value SketchBands#BANDS} band terms in the sketch field, and a
 * candidate matches when its stored sketch's estimated similarity reaches the threshold ({@link SketchCheck}). Scored
 * boost * similarity. The fingerprint plays no part: at these thresholds the bands keep more of the pairs at the
 * threshold than the fingerprint's candidate radius, and a band term's postings are short (a 2^-16 share of unrelated
 * documents), where the radius would probe hundreds of block values.
 */
final class SketchBandQuery extends Query {

    private final SketchCheck check;
    /** The query sketch's band terms, computed once: every segment seeks the same ones. */
    private final BytesRef[] bands;

    SketchBandQuery(SketchCheck check) {
        this.check = Objects.requireNonNull(check);
        this.bands = check.bandTerms();
    }

    SketchCheck check() {
        return check;
    }

    /** The documents of one segment that share a band with the query's sketch, or null when none does. */
    private DocIdSetIterator candidates(LeafReader reader) throws IOException {
        Terms terms = reader.terms(check.sketchField());
        if (terms == null) {
            return null;
        }
        TermsEnum te = terms.iterator();
        DocIdSetBuilder builder = new DocIdSetBuilder(reader.maxDoc());
        PostingsEnum postings = null;
        boolean any = false;
        for (BytesRef band : bands) {
            if (te.seekExact(band)) {
                postings = te.postings(postings, PostingsEnum.NONE);
                builder.add(postings);
                any = true;
            }
        }
        return any ? builder.build().iterator() : null;
    }

    @Override
    public CompatWeight createWeight(IndexSearcher searcher, ScoreMode scoreMode, float boost) {
        return new CompatWeight(this) {
            @Override
            public ScorerSupplier scorerSupplier(LeafReaderContext context) throws IOException {
                LeafReader reader = context.reader();
                BinaryDocValues sketches = reader.getBinaryDocValues(check.sketchField());
                DocIdSetIterator candidates = sketches == null ? null : candidates(reader);
                if (candidates == null || candidates.cost() == 0) {
                    return null;
                }
                return supplier(new BandScorer(this, reader, candidates, sketches, boost));
            }

            @Override
            public Explanation explain(LeafReaderContext context, int doc) throws IOException {
                BinaryDocValues sketches = context.reader().getBinaryDocValues(check.sketchField());
                double s = check.similarity(sketches, doc);
                if (s < 0) {
                    return Explanation.noMatch("no similarity sketch in [" + check.sketchField() + "]");
                }
                DocIdSetIterator candidates = candidates(context.reader());
                if (candidates == null || candidates.advance(doc) != doc) {
                    return Explanation.noMatch("the document's sketch shares none of the query sketch's " + SketchBands.BANDS
                        + " bands of " + SketchBands.BAND_BITS + " bits (estimated similarity [" + s + "])");
                }
                if (!check.passes(s)) {
                    return Explanation.noMatch("estimated similarity [" + s + "] < min_similarity [" + check.minSimilarity() + "]");
                }
                return Explanation.match((float) (boost * s), "simhash: the sketches share a band and estimated similarity [" + s
                    + "] >= min_similarity [" + check.minSimilarity() + "], computed as boost * similarity from:",
                    Explanation.match(boost, "boost"),
                    Explanation.match((float) s, "estimated Jaccard similarity of the query's and the document's sketches"));
            }

            @Override
            public boolean isCacheable(LeafReaderContext ctx) {
                return DocValues.isCacheable(ctx, check.sketchField());
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
            lastSimilarity = check.similarity(sketches, doc);
            return check.passes(lastSimilarity);
        }

        @Override
        public float score() throws IOException {
            if (docID() != lastDoc) {
                // positioned without matches() (allowed by some callers): read the sketch with a fresh iterator
                lastDoc = docID();
                lastSimilarity = check.similarity(reader.getBinaryDocValues(check.sketchField()), lastDoc);
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
        return sameClassAs(other) && check.equals(((SketchBandQuery) other).check);
    }

    @Override
    public int hashCode() {
        return Objects.hash(classHash(), check);
    }
}
