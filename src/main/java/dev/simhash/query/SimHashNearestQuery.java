package dev.simhash.query;

import dev.simhash.compat.lucene.CompatHits;
import dev.simhash.compat.lucene.CompatScorer;
import dev.simhash.compat.lucene.CompatWeight;
import dev.simhash.core.BlockTermLayout;
import dev.simhash.core.SimHash;

import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.Explanation;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.QueryVisitor;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.ScorerSupplier;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.Weight;

import java.io.IOException;
import java.util.Arrays;
import java.util.Objects;

/**
 * The k nearest documents of a shard: searches within growing radii until one holds at least k documents
 * (or the largest allowed radius is reached), then keeps the k best-scored, i.e. nearest, of them. Exact:
 * every document within that radius was scored, and every other one is farther. With {@code min_similarity} the k
 * most similar documents of the verified query (candidates within the threshold's radius, or sharing a sketch band,
 * checked by the sketch) are kept: it is searched at once, since a farther fingerprint may have a more similar
 * sketch. Rewrites, per searcher, to a query over those documents with their scores.
 */
final class SimHashNearestQuery extends Query {

    /** The radii tried in turn: cheap ones first (within 3 bits, one block value each), up to the whole 64 bits. */
    static final int[] RADII = { 3, 7, 11, 15, 23, 31, 47, SimHash.BITS };

    private final String hashField;
    private final BlockTermLayout blocks;
    private final long hash;
    private final Query filter;
    private final Query exclude;
    private final int k;
    private final int maxRadius;
    private final SketchCheck check;
    /** The verified query of {@code check} (a {@link SimHashQuery} or a {@link SketchBandQuery}), or null. */
    private final Query verified;

    /**
     * @param filter    only documents matching it are considered, or null
     * @param exclude   documents never returned (the liked document), or null
     * @param maxRadius the largest radius searched ({@code max_distance}, or 64)
     */
    SimHashNearestQuery(String hashField, BlockTermLayout blocks, long hash, Query filter, Query exclude, int k, int maxRadius) {
        this(hashField, blocks, hash, filter, exclude, k, maxRadius, null, null);
    }

    /** The k most similar documents that match {@code verified}, the query of {@code check}. */
    static SimHashNearestQuery verified(Query verified, SketchCheck check, Query filter, Query exclude, int k) {
        return new SimHashNearestQuery(check.sketchField(), null, 0, filter, exclude, k, SimHash.BITS, check, verified);
    }

    private SimHashNearestQuery(String hashField, BlockTermLayout blocks, long hash, Query filter, Query exclude, int k,
                                int maxRadius, SketchCheck check, Query verified) {
        this.check = check;
        this.verified = verified;
        this.hashField = hashField;
        this.blocks = blocks;
        this.hash = hash;
        this.filter = filter;
        this.exclude = exclude;
        this.k = k;
        this.maxRadius = maxRadius;
    }

    /** The documents within r bits that match the filter (if any), scored (64 - distance) / 64, without the excluded ones. */
    static Query within(String hashField, BlockTermLayout blocks, long hash, int radius, Query filter, Query exclude) {
        return filtered(new SimHashQuery(hashField, blocks, hash, radius), filter, exclude);
    }

    /** {@code q}, restricted to the filter (if any), without the excluded documents. */
    static Query filtered(Query q, Query filter, Query exclude) {
        if (filter == null && exclude == null) {
            return q;
        }
        BooleanQuery.Builder b = new BooleanQuery.Builder().add(q, BooleanClause.Occur.MUST);
        if (filter != null) {
            b.add(filter, BooleanClause.Occur.FILTER);
        }
        if (exclude != null) {
            b.add(exclude, BooleanClause.Occur.MUST_NOT);
        }
        return b.build();
    }

    private Query withinRadius(int radius) {
        return verified != null ? filtered(verified, filter, exclude) : within(hashField, blocks, hash, radius, filter, exclude);
    }

    SketchCheck check() {
        return check;
    }

    @Override
    public Query rewrite(IndexSearcher searcher) throws IOException {
        if (verified != null) {
            return new TopDocsQuery(searcher.search(withinRadius(maxRadius), k).scoreDocs, searcher.getIndexReader().getContext().id());
        }
        TopDocs top = null;
        for (int r : RADII) {
            int radius = Math.min(r, maxRadius);
            top = searcher.search(withinRadius(radius), k);
            if (CompatHits.value(top.totalHits) >= k || radius == maxRadius) {
                break;
            }
        }
        return new TopDocsQuery(top.scoreDocs, searcher.getIndexReader().getContext().id());
    }

    @Override
    public void visit(QueryVisitor visitor) {
        visitor.visitLeaf(this);
    }

    @Override
    public String toString(String field) {
        return "simhash_nearest(k=" + k + ", " + withinRadius(maxRadius) + ")";
    }

    @Override
    public boolean equals(Object other) {
        return sameClassAs(other) && hashField.equals(((SimHashNearestQuery) other).hashField)
            && Objects.equals(blocks, ((SimHashNearestQuery) other).blocks)
            && Objects.equals(verified, ((SimHashNearestQuery) other).verified) && hash == ((SimHashNearestQuery) other).hash
            && Objects.equals(filter, ((SimHashNearestQuery) other).filter)
            && Objects.equals(exclude, ((SimHashNearestQuery) other).exclude) && k == ((SimHashNearestQuery) other).k
            && maxRadius == ((SimHashNearestQuery) other).maxRadius && Objects.equals(check, ((SimHashNearestQuery) other).check);
    }

    @Override
    public int hashCode() {
        return Objects.hash(classHash(), hashField, blocks, hash, filter, exclude, k, maxRadius, check, verified);
    }

    /** Fixed documents of one reader with fixed scores (times the boost). */
    static final class TopDocsQuery extends Query {
        private final int[] docs;
        private final float[] scores;
        private final Object readerId;

        TopDocsQuery(ScoreDoc[] hits, Object readerId) {
            ScoreDoc[] sorted = hits.clone();
            Arrays.sort(sorted, (a, b) -> Integer.compare(a.doc, b.doc));
            this.docs = new int[sorted.length];
            this.scores = new float[sorted.length];
            for (int i = 0; i < sorted.length; i++) {
                docs[i] = sorted[i].doc;
                scores[i] = sorted[i].score;
            }
            this.readerId = readerId;
        }

        @Override
        public Weight createWeight(IndexSearcher searcher, ScoreMode scoreMode, float boost) {
            if (searcher.getIndexReader().getContext().id() != readerId) {
                throw new IllegalStateException("the k nearest documents were computed on another reader");
            }
            return new CompatWeight(this) {
                @Override
                public ScorerSupplier scorerSupplier(LeafReaderContext context) {
                    int from = lowerBound(context.docBase);
                    int to = lowerBound(context.docBase + context.reader().maxDoc());
                    if (from == to) {
                        return null;
                    }
                    return supplier(new TopDocsScorer(this, context.docBase, from, to, boost));
                }

                @Override
                public Explanation explain(LeafReaderContext context, int doc) {
                    int i = Arrays.binarySearch(docs, context.docBase + doc);
                    return i < 0 ? Explanation.noMatch("not among the k nearest documents of the shard")
                        : Explanation.match(scores[i] * boost, "among the k nearest (with min_similarity: most similar) documents "
                            + "of the shard, scored boost * (64 - distance) / 64 (with min_similarity: boost * estimated similarity)");
                }

                @Override
                public boolean isCacheable(LeafReaderContext ctx) {
                    return false;
                }
            };
        }

        private int lowerBound(int globalDoc) {
            int i = Arrays.binarySearch(docs, globalDoc);
            return i >= 0 ? i : -i - 1;
        }

        private final class TopDocsScorer extends CompatScorer {
            private final int docBase;
            private final int from;
            private final int to;
            private final float boost;
            private int index = -1;

            TopDocsScorer(Weight weight, int docBase, int from, int to, float boost) {
                super(weight);
                this.docBase = docBase;
                this.from = from;
                this.to = to;
                this.boost = boost;
            }

            @Override
            public int docID() {
                return index < 0 ? -1 : index >= to ? DocIdSetIterator.NO_MORE_DOCS : docs[index] - docBase;
            }

            @Override
            public float score() {
                return scores[index] * boost;
            }

            @Override
            public float getMaxScore(int upTo) {
                return Float.MAX_VALUE;
            }

            @Override
            public DocIdSetIterator iterator() {
                return new DocIdSetIterator() {
                    @Override
                    public int docID() {
                        return TopDocsScorer.this.docID();
                    }

                    @Override
                    public int nextDoc() {
                        index = index < 0 ? from : index + 1;
                        return docID();
                    }

                    @Override
                    public int advance(int target) {
                        int i = index < 0 ? from : index;
                        while (i < to && docs[i] - docBase < target) {
                            i++;
                        }
                        index = i;
                        return docID();
                    }

                    @Override
                    public long cost() {
                        return to - from;
                    }
                };
            }
        }

        @Override
        public void visit(QueryVisitor visitor) {
            visitor.visitLeaf(this);
        }

        @Override
        public String toString(String field) {
            return "simhash_nearest_docs(" + docs.length + " docs)";
        }

        @Override
        public boolean equals(Object other) {
            return sameClassAs(other) && Arrays.equals(docs, ((TopDocsQuery) other).docs)
                && Arrays.equals(scores, ((TopDocsQuery) other).scores) && readerId == ((TopDocsQuery) other).readerId;
        }

        @Override
        public int hashCode() {
            return Objects.hash(classHash(), Arrays.hashCode(docs), Arrays.hashCode(scores), System.identityHashCode(readerId));
        }
    }
}
