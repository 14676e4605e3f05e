package dev.simhash.query;

import dev.simhash.compat.lucene.CompatWeight;
import dev.simhash.core.BlockProbes;
import dev.simhash.core.BlockTermLayout;
import dev.simhash.core.SimHash;

import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.SortedNumericDocValues;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.Explanation;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.QueryVisitor;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.ScorerSupplier;
import org.apache.lucene.search.Weight;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.DocIdSetBuilder;

import java.io.IOException;
import java.util.Objects;

/**
 * Exact Hamming-distance search on simhash-v1 fingerprints. Per segment, candidates are the union
 * of the postings of every block term within floor(r/4) bits of the query's block (multi-index
 * hashing: complete by the pigeonhole principle); each candidate is verified against the full hash
 * in doc values. When the probed terms would cover a large part of the segment anyway, the segment
 * is scanned instead (every document's hash verified). Score = boost * (64 - distance) / 64.
 * With a {@link SketchCheck} ({@code min_similarity}), a document within the radius also needs a stored sketch
 * whose estimated similarity to the query's is at least the threshold; it is then scored boost * similarity.
 */
final class SimHashQuery extends Query {

    /**
     * Scan instead of probing when the probed block terms cover more than maxDoc / SCAN_FRACTION
     * documents: at that point reading postings and then doc values costs more than reading the
     * doc values of every document once.
     */
    static final int SCAN_FRACTION = 4;
    /** Enumerate a block field's whole term dictionary instead of seeking when probes exceed terms / SEEK_RATIO. */
    static final int SEEK_RATIO = 4;

    private final String hashField;
    private final BlockTermLayout blocks;
    private final long hash;
    private final int maxDistance;
    /** The sketch verification of {@code min_similarity}, or null (distance only). */
    private final SketchCheck check;

    SimHashQuery(String hashField, BlockTermLayout blocks, long hash, int maxDistance) {
        this(hashField, blocks, hash, maxDistance, null);
    }

    SimHashQuery(String hashField, BlockTermLayout blocks, long hash, int maxDistance, SketchCheck check) {
        BlockProbes.checkMaxDistance(maxDistance);
        this.hashField = hashField;
        this.blocks = blocks;
        this.hash = hash;
        this.maxDistance = maxDistance;
        this.check = check;
    }

    SketchCheck check() {
        return check;
    }

    long hash() {
        return hash;
    }

    int maxDistance() {
        return maxDistance;
    }

    @Override
    public Weight createWeight(IndexSearcher searcher, ScoreMode scoreMode, float boost) {
        return new SimHashWeight(boost);
    }

    /** Smallest distance between the query hash and the document's values (64 + 1 when it has none). */
    private int distance(SortedNumericDocValues values) throws IOException {
        int best = SimHash.BITS + 1;
        for (int i = 0, n = values.docValueCount(); i < n; i++) {
            best = Math.min(best, SimHash.distance(hash, values.nextValue()));
        }
        return best;
    }

    private float score(float boost, int distance) {
        return boost * (SimHash.BITS - distance) / SimHash.BITS;
    }

    /**
     * Candidate documents of one segment from the block fields, or null when the segment should be
     * scanned because the candidates would cover more than a {@code 1/SCAN_FRACTION} of it.
     */
    private DocIdSetIterator candidates(LeafReader reader) throws IOException {
        int perBlockRadius = BlockProbes.perBlockRadius(maxDistance);
        long limit = reader.maxDoc() / SCAN_FRACTION;
        long covered = 0;
        DocIdSetBuilder builder = new DocIdSetBuilder(reader.maxDoc());
        PostingsEnum postings = null;
        for (int j = 0; j < SimHash.BLOCKS; j++) {
            Terms terms = reader.terms(blocks.field(j));
            if (terms == null) {
                continue;
            }
            int queryBlock = SimHash.block(hash, j);
            TermsEnum te = terms.iterator();
            long termCount = terms.size();
            int probes = BlockProbes.countWithin(perBlockRadius);
            if (termCount < 0 || probes <= termCount / SEEK_RATIO) {
                for (int value : BlockProbes.within(queryBlock, perBlockRadius)) {
                    if (te.seekExact(blocks.term(j, value))) {
                        covered += te.docFreq();
                        if (covered > limit) {
                            return null;
                        }
                        postings = te.postings(postings, PostingsEnum.NONE);
                        builder.add(postings);
                    }
                }
            } else {
                // more probes than a fraction of the distinct terms: walk the block's (at most 65536) terms once
                BytesRef start = blocks.blockStart(j);
                TermsEnum.SeekStatus status = start.length == 0 ? TermsEnum.SeekStatus.FOUND : te.seekCeil(start);
                BytesRef first = status == TermsEnum.SeekStatus.END ? null : start.length == 0 ? te.next() : te.term();
                for (BytesRef term = first; term != null && !blocks.pastBlock(j, term); term = te.next()) {
                    int value = blocks.value(j, term);
                    if (value >= 0 && Integer.bitCount(value ^ queryBlock) <= perBlockRadius) {
                        covered += te.docFreq();
                        if (covered > limit) {
                            return null;
                        }
                        postings = te.postings(postings, PostingsEnum.NONE);
                        builder.add(postings);
                    }
                }
            }
        }
        return builder.build().iterator();
    }

    private final class SimHashWeight extends CompatWeight {
        private final float boost;

        SimHashWeight(float boost) {
            super(SimHashQuery.this);
            this.boost = boost;
        }

        @Override
        public ScorerSupplier scorerSupplier(LeafReaderContext context) throws IOException {
            LeafReader reader = context.reader();
            SortedNumericDocValues values = reader.getSortedNumericDocValues(hashField);
            if (values == null) {
                return null; // no document of this segment has a fingerprint
            }
            BinaryDocValues sketches = null;
            if (check != null) {
                sketches = check.sketches(reader);
                if (sketches == null) {
                    return null; // no document of this segment has a sketch: none can match a min_similarity
                }
            }
            DocIdSetIterator candidates = candidates(reader);
            boolean scan = candidates == null;
            DocIdSetIterator approximation = scan ? values : candidates;
            if (approximation == null || approximation.cost() == 0) {
                return null;
            }
            SimHashScorer scorer = new SimHashScorer(this, reader, approximation, values, sketches, scan, boost);
            return supplier(scorer);
        }

        @Override
        public Explanation explain(LeafReaderContext context, int doc) throws IOException {
            SortedNumericDocValues values = DocValues.getSortedNumeric(context.reader(), hashField);
            if (!values.advanceExact(doc)) {
                return Explanation.noMatch("no fingerprint in [" + hashField + "]");
            }
            int d = distance(values);
            if (d > maxDistance) {
                return Explanation.noMatch("hamming distance [" + d + "] > max_distance [" + maxDistance + "]");
            }
            if (check != null) {
                int equal = check.equalBins(check.sketches(context.reader()), doc);
                if (equal < 0) {
                    return Explanation.noMatch("no similarity sketch in [" + check.sketchField() + "]");
                }
                double s = check.similarity(equal);
                if (!check.passes(equal)) {
                    return Explanation.noMatch("estimated similarity [" + s + "] < min_similarity [" + check.minSimilarity() + "]");
                }
                return Explanation.match((float) (boost * s), "simhash: hamming distance [" + d + "] <= candidate radius [" + maxDistance
                    + "] and estimated similarity [" + s + "] >= min_similarity [" + check.minSimilarity() + "], computed as boost * "
                    + "similarity from:",
                    Explanation.match(boost, "boost"),
                    Explanation.match((float) s, "estimated Jaccard similarity of the query's and the document's sketches"));
            }
            return Explanation.match(score(boost, d),
                "simhash: hamming distance [" + d + "] <= max_distance [" + maxDistance + "], computed as boost * (64 - distance) / 64 from:",
                Explanation.match(boost, "boost"),
                Explanation.match(d, "hamming distance between [" + SimHash.toHex(hash) + "] and the document's fingerprint"));
        }

        @Override
        public boolean isCacheable(LeafReaderContext ctx) {
            return check == null ? DocValues.isCacheable(ctx, hashField) : DocValues.isCacheable(ctx, hashField, check.sketchField());
        }
    }

    /** Iterates candidates and verifies each against the full hash (and the sketch); scores by distance (or similarity). */
    private final class SimHashScorer extends VerifyingScorer {
        private final SortedNumericDocValues values;
        private final BinaryDocValues sketches;
        private final boolean scan;
        private final LeafReader reader;
        private int lastDoc = -1;
        private int lastDistance;
        private double lastSimilarity;

        SimHashScorer(Weight weight, LeafReader reader, DocIdSetIterator approximation, SortedNumericDocValues values,
                      BinaryDocValues sketches, boolean scan, float boost) {
            // one doc-values read and up to a few popcounts; a sketch adds a 64-byte read and its popcounts
            super(weight, approximation, boost, check == null ? 8 : 24);
            this.reader = reader;
            this.values = values;
            this.sketches = sketches;
            this.scan = scan;
        }

        @Override
        protected boolean verify(int doc) throws IOException {
            // when scanning, the approximation is the doc values iterator itself, positioned on the doc
            if (!scan && !values.advanceExact(doc)) {
                return false;
            }
            lastDistance = distance(values);
            lastDoc = doc;
            if (lastDistance > maxDistance) {
                return false;
            }
            if (check == null) {
                return true;
            }
            int equal = check.equalBins(sketches, lastDoc);
            lastSimilarity = check.similarity(equal);
            return check.passes(equal);
        }

        @Override
        public float score() throws IOException {
            int doc = docID();
            if (doc != lastDoc) {
                // positioned without matches() (allowed by some callers): read the hash again with a fresh iterator
                SortedNumericDocValues fresh = DocValues.getSortedNumeric(reader, hashField);
                lastDistance = fresh.advanceExact(doc) ? distance(fresh) : SimHash.BITS;
                if (check != null) {
                    lastSimilarity = check.similarity(check.equalBins(check.sketches(reader), doc));
                }
                lastDoc = doc;
            }
            if (check != null) {
                return (float) (boost * Math.max(0, lastSimilarity));
            }
            return SimHashQuery.this.score(boost, Math.min(lastDistance, SimHash.BITS));
        }
    }

    @Override
    public void visit(QueryVisitor visitor) {
        if (visitor.acceptField(hashField)) {
            visitor.visitLeaf(this);
        }
    }

    @Override
    public String toString(String field) {
        return "simhash(" + hashField + ":" + SimHash.toHex(hash) + ", max_distance=" + maxDistance + (check == null ? "" : ", " + check)
            + ")";
    }

    @Override
    public boolean equals(Object other) {
        return sameClassAs(other)
            && hash == ((SimHashQuery) other).hash
            && maxDistance == ((SimHashQuery) other).maxDistance
            && hashField.equals(((SimHashQuery) other).hashField)
            && blocks.equals(((SimHashQuery) other).blocks)
            && Objects.equals(check, ((SimHashQuery) other).check);
    }

    @Override
    public int hashCode() {
        return Objects.hash(classHash(), hashField, blocks, hash, maxDistance, check);
    }
}
