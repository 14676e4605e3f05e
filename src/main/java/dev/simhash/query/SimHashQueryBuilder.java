package dev.simhash.query;

import dev.simhash.compat.CompatLeafQueryBuilder;
import dev.simhash.core.BlockProbes;
import dev.simhash.core.CandidateRadius;
import dev.simhash.core.SketchBands;
import dev.simhash.core.FeatureWeights;
import dev.simhash.core.FingerprintSpec;
import dev.simhash.core.MinHashSketch;
import dev.simhash.core.SimHash;
import dev.simhash.core.TextFingerprinter;
import dev.simhash.mapper.FingerprintField;
import dev.simhash.mapper.SimHashFieldMapper;
import dev.simhash.mapper.SimHashFieldType;
import dev.simhash.request.Declarations;
import dev.simhash.request.FingerprintMappings;
import dev.simhash.threshold.Thresholds;
import dev.simhash.threshold.Verification;
import dev.simhash.wire.WireEnvelope;

import org.apache.lucene.search.MatchNoDocsQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.util.SetOnce;
import org.elasticsearch.TransportVersion;
import org.elasticsearch.common.ParsingException;
import org.elasticsearch.common.io.stream.StreamInput;
import org.elasticsearch.common.io.stream.StreamOutput;
import org.elasticsearch.index.query.IdsQueryBuilder;
import org.elasticsearch.index.query.QueryBuilder;
import org.elasticsearch.index.query.QueryRewriteContext;
import org.elasticsearch.index.query.SearchExecutionContext;
import org.elasticsearch.xcontent.ObjectParser;
import org.elasticsearch.xcontent.ParseField;
import org.elasticsearch.xcontent.XContentBuilder;
import org.elasticsearch.xcontent.XContentParser;

import java.io.IOException;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
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

    /**
     * The radius on a field when no threshold applies ({@link #threshold}): {@code max_distance}; with {@code k} and no radius 64
     * (no limit); else the field's version default
     * (3 for simhash-v1 and the processor's object form, 6 for simhash-v2) or, for a {@code text} on the object form, the
     * default of the version the text is fingerprinted with.
     */
    int maxDistance(FingerprintField fp) {
        if (maxDistance != null) {
            return maxDistance;
        }
        if (k != null) {
            return SimHash.BITS;
        }
        return !fp.isFieldType() && text != null ? textSpec().version().defaultMaxDistance() : fp.defaultMaxDistance();
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
    private boolean usesDefaults() {
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

    /**
     * The threshold on this field: {@code min_similarity}; else, on a field with a sketch, a {@code text} (or the
     * {@code hash} + {@code sketch} of a rewritten {@code like}) without {@code max_distance} and {@code k} uses
     * {@link MinHashSketch#DEFAULT_MIN_SIMILARITY}; else null (distance only: a bare hash keeps the version's radius).
     */
    Double threshold(FingerprintField fp) {
        return Thresholds.queryThreshold(minSimilarity, usesDefaults(), text != null || sketch != null,
            fp.isFieldType() && fp.fieldType().sketch() != null);
    }

    /**
     * Whether {@code exclude}'s {@code index} names this shard's index: an index expression resolved as a search resolves
     * it (a name, an alias, a wildcard pattern, {@code _all}, a comma-separated list whose {@code -}-prefixed items after
     * the first leave indices out), so the document {@code id} is left out of every index the expression names; as the
     * {@code _index} field's queries match index names.
     */
    private boolean excludesFrom(SearchExecutionContext context) {
        if (context.index().getName().equals(excludeIndex)) {
            return true;
        }
        boolean named = false;
        String[] parts = excludeIndex.split(",");
        for (int i = 0; i < parts.length; i++) {
            String part = parts[i].trim();
            if (part.isEmpty()) {
                continue;
            }
            if (i > 0 && part.startsWith("-")) {
                if (named && context.indexMatches(part.substring(1))) {
                    named = false;
                }
            } else if (!named && context.indexMatches(part)) {
                named = true;
            }
        }
        return named;
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
        long h;
        if (hash != null) {
            h = hash;
        } else if (text != null) {
            h = fingerprintText(fp, context);
        } else {
            throw new IllegalStateException("[" + NAME + "] query with [like] was not rewritten before execution");
        }
        Query exclude = excludeId != null && excludesFrom(context)
            ? new IdsQueryBuilder().addIds(excludeId).toQuery(context) : null;
        Query only = filter == null ? null : filter.toQuery(context);
        Double s = threshold(fp);
        if (s != null) {
            byte[] querySketch = querySketch(fp); // first: refuses a field without sketches
            Verification threshold = Verification.of(s);
            SketchCheck check = new SketchCheck(fp.fieldType().name(), fp.fieldType().sketch(), querySketch, threshold);
            // candidates: sharing a sketch band at thresholds the bands cover, else within the threshold's radius
            Query verified = threshold.byBands() ? SketchBandQuery.of(check, fp.fieldType().bandValuesHeld(context))
                : new SimHashQuery(fp.docValuesField(), fp.blocks(), h, threshold.radius(), check);
            if (k != null) {
                return SimHashNearestQuery.verified(verified, check, only, exclude, k);
            }
            return SimHashNearestQuery.filtered(verified, only, exclude);
        }
        int radius = maxDistance(fp);
        if (k != null) {
            return new SimHashNearestQuery(fp.docValuesField(), fp.blocks(), h, only, exclude, k, radius);
        }
        return SimHashNearestQuery.within(fp.docValuesField(), fp.blocks(), h, radius, only, exclude);
    }

    /**
     * The sketch the candidates are verified against: the one given with {@code hash} (a rewritten {@code like}), or the
     * sketch of {@code text} by the field's own sketch (its fingerprint was computed first, so it has tokens).
     *
     * @throws IllegalArgumentException when the field stores no sketch, or a bare hash has none
     */
    private byte[] querySketch(FingerprintField fp) {
        MinHashSketch fieldSketch = fp.isFieldType() ? fp.fieldType().sketch() : null;
        if (fieldSketch == null) {
            IllegalArgumentException e = Thresholds.noSketches(field, null, noSketchReason(fp));
            throw new IllegalArgumentException("[" + NAME + "] " + e.getMessage(), e);
        }
        if (text != null) {
            byte[] own = fieldSketch.sketch(text);
            if (own == null) {
                // unreachable while a fingerprint needs a token; kept as the same 400 as a text without fingerprint
                throw new IllegalArgumentException("[text] has no token, so no similarity sketch");
            }
            return own;
        }
        if (sketch == null) {
            throw new IllegalArgumentException("[" + NAME + "] " + Thresholds.bareHash().getMessage());
        }
        return sketch;
    }

    private static String noSketchReason(FingerprintField fp) {
        if (!fp.isFieldType()) {
            return FingerprintMappings.PROCESSOR_OBJECT_HAS_NO_SKETCH;
        }
        if (fp.fieldType().input() == SimHashFieldMapper.Input.FINGERPRINT) {
            return "it takes ready-made fingerprints ([input] = [fingerprint])";
        }
        if (fp.fieldType().version() != FingerprintSpec.Version.V2) {
            return "it fingerprints with " + fp.fieldType().version().algorithm() + ", which has no sketch";
        }
        return "its [" + SimHashFieldMapper.SKETCH + "] is [" + SimHashFieldMapper.NO_SKETCH + "]";
    }

    /**
     * The fingerprint of {@code text}: with the {@code simhash} field's own spec (options given in the query may only
     * repeat it), or on the processor's object form with the options given and defaults, the analyzer resolved as the
     * processor resolves it.
     */
    private long fingerprintText(FingerprintField fp, SearchExecutionContext context) {
        TextFingerprinter fingerprinter;
        String analyzer;
        if (fp.isFieldType()) {
            SimHashFieldType type = fp.fieldType();
            if (type.spec() == null) {
                throw new IllegalArgumentException("[" + NAME + "] [text] cannot be used on [" + field + "]: it is a [simhash] field with "
                    + "[input] = [fingerprint], which takes ready-made fingerprints; query it with [hash] or [like]");
            }
            for (Map.Entry<String, Object> given : textOptions.entrySet()) {
                if (!type.spec().applies(given.getKey())) {
                    throw new IllegalArgumentException("[" + NAME + "] [" + given.getKey() + "] does not apply to the [simhash] field ["
                        + field + "], which fingerprints text with " + type.spec().version().algorithm() + "; leave the option out: "
                        + "the field's own options are used");
                }
                Object own = type.spec().optionValue(given.getKey());
                if (!given.getValue().equals(own)) {
                    throw new IllegalArgumentException("[" + NAME + "] [" + given.getKey() + "] [" + given.getValue() + "] contradicts the "
                        + "[simhash] field [" + field + "], which fingerprints text with [" + given.getKey() + "] = [" + own
                        + "]; leave the option out: the field's own options are used");
                }
            }
            fingerprinter = type.fingerprinter();
            analyzer = type.spec().analyzer();
        } else {
            FingerprintSpec spec = textSpec();
            analyzer = spec.analyzer();
            if (!spec.hasBuiltInAnalyzer()
                && context.getIndexSettings().getSettings().getAsSettings("index.analysis.analyzer").names().contains(analyzer)) {
                // the processor resolves names among the node's analyzers: an index's own analyzer would fingerprint differently
                throw new IllegalArgumentException("[" + NAME + "] [analyzer] [" + analyzer + "] is defined in the settings of index ["
                    + context.index().getName() + "], which the simhash processor cannot use, so the fingerprints would not match; "
                    + "fingerprint with a [simhash] field to use an index's analyzer");
            }
            try {
                fingerprinter = spec.fingerprinter(name -> context.getIndexAnalyzers().get(name), "the node", weightTables);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("[" + NAME + "] " + e.getMessage(), e);
            }
        }
        OptionalLong fp1 = fingerprinter.fingerprint(text);
        if (fp1.isEmpty()) {
            throw new IllegalArgumentException("[text] has no fingerprint: fewer than [min_features] = "
                + fingerprinter.options().minFeatures() + " distinct features after analysis with [" + analyzer + "]");
        }
        return fp1.getAsLong();
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
