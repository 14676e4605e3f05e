package dev.simhash.query;

import dev.simhash.compat.CompatLeafQueryBuilder;
import dev.simhash.core.CandidateRadius;
import dev.simhash.core.FeatureWeights;
import dev.simhash.core.FingerprintSpec;
import dev.simhash.core.MinHashSketch;
import dev.simhash.core.SimHash;
import dev.simhash.core.SketchBands;
import dev.simhash.mapper.FingerprintField;
import dev.simhash.threshold.Thresholds;
import dev.simhash.wire.WireEnvelope;

import org.apache.lucene.search.MatchNoDocsQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.util.SetOnce;
import org.elasticsearch.TransportVersion;
import org.elasticsearch.common.io.stream.StreamInput;
import org.elasticsearch.common.io.stream.StreamOutput;
import org.elasticsearch.index.query.IdsQueryBuilder;
import org.elasticsearch.index.query.QueryBuilder;
import org.elasticsearch.index.query.QueryRewriteContext;
import org.elasticsearch.index.query.SearchExecutionContext;
import org.elasticsearch.xcontent.XContentBuilder;
import org.elasticsearch.xcontent.XContentParser;

import java.io.IOException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The {@code simhash} query: documents whose stored fingerprint is within {@code max_distance} bits
 * of a hash, of the fingerprint of a text, or of an indexed document's fingerprint; or, with {@code k},
 * the k nearest documents of each shard. Exact for every distance 0..64; scored (64 - distance) / 64
 * times boost. With {@code min_similarity} instead of {@code max_distance}, the candidates within the radius the
 * threshold implies are verified with the field's similarity sketch and scored by the estimated similarity.
 * The field is a {@code simhash} field or the object the ingest processor writes.
 */
public final class SimHashQueryBuilder extends CompatLeafQueryBuilder<SimHashQueryBuilder> {

    public static final String NAME = "simhash";

    /** The largest {@code k}, as for {@code knn}. */
    public static final int MAX_K = 10_000;

    private final String field;
    private Long hash;
    private String text;
    /** Fingerprint options given with {@code text}, as users write them (only those given: the rest come from the field). */
    private Map<String, Object> textOptions = Map.of();
    private Like like;
    private boolean include;
    private Integer maxDistance;
    private Double minSimilarity;
    /** The query's sketch with {@code hash}, {@link MinHashSketch#BYTES} long, or null. */
    private byte[] sketch;
    private Integer k;
    /** Only documents matching it are considered (for {@code k}: before the nearest are chosen); null: all. */
    private QueryBuilder filter;
    /** After a {@code like} is fetched without {@code include}: the liked document, left out of the hits. */
    private String excludeIndex;
    private String excludeId;
    private final Supplier<LikeFetcher.Liked> likeSupplier;
    /** Where {@code text}'s {@code weights} table is found (the node's registry; set by the plugin, not serialized). */
    private FeatureWeights.Tables weightTables;

    public SimHashQueryBuilder(String field) {
        this(field, null);
    }

    private SimHashQueryBuilder(String field, Supplier<LikeFetcher.Liked> likeSupplier) {
        if (field == null || field.isEmpty()) {
            throw new IllegalArgumentException("[" + NAME + "] requires a non-empty [field]");
        }
        this.field = field;
        this.likeSupplier = likeSupplier;
    }

    public SimHashQueryBuilder(StreamInput in) throws IOException {
        super(in);
        StreamInput body = WireEnvelope.read(in).in();
        field = body.readString();
        hash = body.readOptionalLong();
        text = body.readOptionalString();
        textOptions = body.readGenericMap();
        if (body.readBoolean()) {
            like = new Like(body.readOptionalString(), body.readString(), body.readOptionalString());
        }
        include = body.readBoolean();
        maxDistance = body.readOptionalVInt();
        k = body.readOptionalVInt();
        filter = body.readOptionalNamedWriteable(QueryBuilder.class);
        excludeIndex = body.readOptionalString();
        excludeId = body.readOptionalString();
        minSimilarity = body.readOptionalDouble();
        sketch = body.readOptionalByteArray();
        likeSupplier = null;
    }

    @Override
    protected void doWriteTo(StreamOutput out) throws IOException {
        if (likeSupplier != null) {
            throw new IllegalStateException("the [like] document must be fetched before the query is sent to shards (missing rewrite)");
        }
        WireEnvelope.write(out, body -> {
            body.writeString(field);
            body.writeOptionalLong(hash);
            body.writeOptionalString(text);
            body.writeGenericMap(textOptions);
            body.writeBoolean(like != null);
            if (like != null) {
                body.writeOptionalString(like.index());
                body.writeString(like.id());
                body.writeOptionalString(like.routing());
            }
            body.writeBoolean(include);
            body.writeOptionalVInt(maxDistance);
            body.writeOptionalVInt(k);
            body.writeOptionalNamedWriteable(filter);
            body.writeOptionalString(excludeIndex);
            body.writeOptionalString(excludeId);
            body.writeOptionalDouble(minSimilarity);
            body.writeOptionalByteArray(sketch);
        });
    }

    public String field() {
        return field;
    }

    public Long hash() {
        return hash;
    }

    public String text() {
        return text;
    }

    public Like like() {
        return like;
    }

    /** The fingerprint options given with {@code text} (option name to value as users write it); the rest take their defaults. */
    public Map<String, Object> textOptions() {
        return textOptions;
    }

    /** The spec that fingerprints {@code text} on the processor's object form: the options given, defaults for the rest. */
    public FingerprintSpec textSpec() {
        return FingerprintSpec.parse(textOptions);
    }

    /**
     * The radius given as {@code max_distance}, or null: then {@code min_similarity}'s radius, or the field's default threshold
     * (text and like on a field with a sketch), or the field's default radius (with {@code k}: 64, i.e. no limit).
     */
    public Integer maxDistance() {
        return maxDistance;
    }

    /** The threshold given as {@code min_similarity}, or null. */
    public Double minSimilarity() {
        return minSimilarity;
    }

    /** The query's sketch given with {@code hash} (a copy), or null. */
    public byte[] sketch() {
        return sketch == null ? null : sketch.clone();
    }

    /**
     * Matches only documents whose stored sketch has an estimated similarity of at least {@code s} (0 < s <= 1) with the
     * query's; the candidates are those sharing a sketch band from {@link SketchBands#FROM} on, else those within
     * {@link CandidateRadius#radius(double)}; the score is the similarity.
     */
    public SimHashQueryBuilder minSimilarity(Double s) {
        this.minSimilarity = s == null ? null : Thresholds.minSimilarity(s);
        return this;
    }

    /** The query's similarity sketch with {@code hash}: exactly {@link MinHashSketch#BYTES} bytes of {@link MinHashSketch#V1}. */
    public SimHashQueryBuilder sketch(byte[] sketch) {
        if (sketch != null && sketch.length != MinHashSketch.BYTES) {
            throw new IllegalArgumentException("[" + QueryBody.SKETCH.getPreferredName() + "] must be the " + MinHashSketch.BYTES + " bytes of a ["
                + MinHashSketch.ALGORITHM + "] sketch, got [" + sketch.length + "] bytes");
        }
        this.sketch = sketch == null ? null : sketch.clone();
        return this;
    }

    /** The number of nearest documents per shard, or null (every document within {@code max_distance}). */
    public Integer k() {
        return k;
    }

    /** Whether a {@code like} query keeps the liked document among the hits (default: it is left out). */
    public boolean include() {
        return include;
    }

    public SimHashQueryBuilder hash(long hash) {
        this.hash = hash;
        return this;
    }

    public SimHashQueryBuilder text(String text) {
        this.text = Objects.requireNonNull(text, "[text] must not be null");
        return this;
    }

    /**
     * Fingerprint options for {@code text} (names and values as in the processor's options). On a {@code simhash}
     * field they may only repeat the field's own; on the processor's object form, those not given take their defaults.
     *
     * @throws IllegalArgumentException naming the option when one is unknown or invalid
     */
    public SimHashQueryBuilder textOptions(Map<String, ?> options) {
        FingerprintSpec.parse(options); // validates, with the option named
        Map<String, Object> canonical = new LinkedHashMap<>();
        for (Map.Entry<String, ?> e : options.entrySet()) {
            if (e.getValue() != null) {
                canonical.put(e.getKey(), FingerprintSpec.canonicalValue(e.getKey(), e.getValue()));
            }
        }
        this.textOptions = Map.copyOf(canonical);
        return this;
    }

    public SimHashQueryBuilder like(Like like) {
        this.like = like;
        return this;
    }

    public SimHashQueryBuilder maxDistance(Integer maxDistance) {
        this.maxDistance = maxDistance == null ? null : Thresholds.maxDistance(maxDistance, SimHash.BITS);
        return this;
    }

    /** Returns the k nearest documents of each shard (within {@code max_distance} when it is given too). */
    public SimHashQueryBuilder k(Integer k) {
        this.k = k == null ? null : Thresholds.k(k, MAX_K);
        return this;
    }

    /** Documents must match this query to be considered; with {@code k}, the k nearest are chosen among them. */
    public SimHashQueryBuilder filter(QueryBuilder filter) {
        this.filter = filter;
        return this;
    }

    public QueryBuilder filter() {
        return filter;
    }

    public SimHashQueryBuilder include(boolean include) {
        this.include = include;
        return this;
    }

    /**
     * Leaves the document {@code id} of index {@code index} out of the matches (what a {@code like} query without
     * {@code include} becomes once its document is fetched: a {@code hash} and an {@code exclude}).
     */
    public SimHashQueryBuilder exclude(String index, String id) {
        if (index == null || index.isEmpty() || id == null || id.isEmpty()) {
            throw new IllegalArgumentException("[" + QueryBody.EXCLUDE.getPreferredName() + "] requires [index] and [id]");
        }
        this.excludeIndex = index;
        this.excludeId = id;
        return this;
    }

    /** The index of the document left out ({@link #exclude}), or null. */
    public String excludeIndex() {
        return excludeIndex;
    }

    /** The id of the document left out ({@link #exclude}), or null. */
    public String excludeId() {
        return excludeId;
    }

    @Override
    public String getWriteableName() {
        return NAME;
    }

    @Override
    public TransportVersion getMinimalSupportedVersion() {
        // any node with the plugin reads it; fromId(0) rather than zero(), which early patches (8.19.0, 9.0.0) lack
        return TransportVersion.fromId(0);
    }

    /**
     * The combinations of {@code min_similarity} and {@code sketch} with the other parameters.
     *
     * @throws IllegalArgumentException naming the parameters
     */
    void checkSimilarityCombinations() {
        Thresholds.checkNotBoth(minSimilarity, maxDistance);
        if (minSimilarity != null && hash != null && sketch == null) {
            throw Thresholds.bareHash();
        }
        if (sketch != null && minSimilarity == null && !usesDefaults()) {
            // without min_similarity, a sketch stands for the default threshold: a radius or k would contradict it
            throw new IllegalArgumentException("[sketch] only applies with [min_similarity], or with neither [max_distance] nor [k] (the "
                + "default threshold)");
        }
    }

    /** {@code filter}: any query, parsed as Elasticsearch parses inner queries. */
    static QueryBuilder parseFilter(XContentParser parser) throws IOException {
        return parseInnerQueryBuilder(parser);
    }

    /** Parses the query body ({@link QueryBody#parse}). */
    public static SimHashQueryBuilder fromXContent(XContentParser parser) throws IOException {
        return QueryBody.parse(parser);
    }

    @Override
    protected void doXContent(XContentBuilder builder, Params params) throws IOException {
        builder.startObject(NAME);
        QueryBody.write(this, builder);
        boostAndQueryNameToXContent(builder);
        builder.endObject();
    }

    /** Where the tables named by {@code text}'s {@code weights} option are found (the node's registry); not serialized. */
    public SimHashQueryBuilder weightTables(FeatureWeights.Tables tables) {
        this.weightTables = tables;
        return this;
    }

    /** This query with every parameter, waiting for {@code likeSupplier} (null: none). */
    private SimHashQueryBuilder copy(Supplier<LikeFetcher.Liked> supplier) {
        SimHashQueryBuilder c = new SimHashQueryBuilder(field, supplier);
        c.hash = hash;
        c.text = text;
        c.textOptions = textOptions;
        c.like = like;
        c.include = include;
        c.maxDistance = maxDistance;
        c.minSimilarity = minSimilarity;
        c.sketch = sketch;
        c.k = k;
        c.filter = filter;
        c.excludeIndex = excludeIndex;
        c.excludeId = excludeId;
        c.weightTables = weightTables;
        return c.boost(boost()).queryName(queryName());
    }

    /**
     * The query for the fetched liked document: its hash (and sketch, when one was read), leaving the document out unless
     * {@code include}.
     */
    private SimHashQueryBuilder withLiked(LikeFetcher.Liked liked) {
        SimHashQueryBuilder b = copy(null);
        b.hash = liked.hash();
        b.sketch = liked.sketch();
        b.like = null;
        b.include = false;
        if (!include) {
            b.excludeIndex = liked.index();
            b.excludeId = like.id();
        }
        return b;
    }

    @Override
    protected QueryBuilder doRewrite(QueryRewriteContext context) throws IOException {
        if (likeSupplier != null) {
            LikeFetcher.Liked liked = likeSupplier.get();
            return liked == null ? this : withLiked(liked);
        }
        if (like != null && hash == null) {
            SetOnce<LikeFetcher.Liked> fetched = new SetOnce<>();
            LikeFetcher fetcher = new LikeFetcher(field, like, sketchNeed());
            context.registerAsyncAction((client, listener) -> fetcher.fetch(client, listener.map(liked -> {
                fetched.set(liked);
                return null;
            })));
            return copy(fetched::get);
        }
        if (filter != null) {
            QueryBuilder rewritten = filter.rewrite(context);
            if (rewritten != filter) {
                return copy(likeSupplier).filter(rewritten);
            }
        }
        return super.doRewrite(context);
    }

    /** Whether neither a radius, a threshold nor {@code k} is given: then a field with a sketch verifies with the default threshold. */
    boolean usesDefaults() {
        return minSimilarity == null && maxDistance == null && k == null;
    }

    /**
     * Whether a {@code like} reads the liked document's sketch as well: with {@code min_similarity} it must; with the
     * defaults it does where the field stores sketches (each shard then applies the default threshold if its field has them).
     */
    private LikeFetcher.SketchNeed sketchNeed() {
        if (minSimilarity != null) {
            return LikeFetcher.SketchNeed.REQUIRED;
        }
        return usesDefaults() ? LikeFetcher.SketchNeed.IF_STORED : LikeFetcher.SketchNeed.NONE;
    }

    @Override
    protected Query doToQuery(SearchExecutionContext context) throws IOException {
        FingerprintField fp;
        try {
            fp = FingerprintField.resolve(field, context::getFieldType);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("[" + NAME + "] " + e.getMessage(), e);
        }
        if (fp == null) {
            // like other queries on a field this index does not have (e.g. in a multi-index search): no match, no failure
            return new MatchNoDocsQuery("[" + NAME + "] [" + field + "] is not mapped");
        }
        if (hash == null && text == null) {
            throw new IllegalStateException("[" + NAME + "] query with [like] was not rewritten before execution");
        }
        long h = hash != null ? hash : QueryPlanner.fingerprint(this, fp, context);
        Query exclude = excludeId != null && QueryPlanner.excludesFrom(excludeIndex, context)
            ? new IdsQueryBuilder().addIds(excludeId).toQuery(context) : null;
        Query only = filter == null ? null : filter.toQuery(context);
        return QueryPlanner.plan(this, fp).toQuery(fp, h, only, exclude, context);
    }

    /** Where the tables named by {@code text}'s {@code weights} option are found; null until the plugin sets it. */
    FeatureWeights.Tables weightTables() {
        return weightTables;
    }

    @Override
    protected boolean doEquals(SimHashQueryBuilder other) {
        return field.equals(other.field)
            && Objects.equals(hash, other.hash)
            && Objects.equals(text, other.text)
            && textOptions.equals(other.textOptions)
            && Objects.equals(like, other.like)
            && include == other.include
            && Objects.equals(maxDistance, other.maxDistance)
            && Objects.equals(minSimilarity, other.minSimilarity)
            && Arrays.equals(sketch, other.sketch)
            && Objects.equals(k, other.k)
            && Objects.equals(filter, other.filter)
            && Objects.equals(excludeIndex, other.excludeIndex)
            && Objects.equals(excludeId, other.excludeId)
            && Objects.equals(likeSupplier, other.likeSupplier);
    }

    @Override
    protected int doHashCode() {
        return Objects.hash(field, hash, text, textOptions, like, include, maxDistance, minSimilarity, Arrays.hashCode(sketch), k, filter,
            excludeIndex, excludeId, likeSupplier);
    }
}
