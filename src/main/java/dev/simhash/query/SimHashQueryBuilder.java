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

    static final ParseField FIELD = new ParseField("field");
    static final ParseField HASH = new ParseField("hash");
    static final ParseField TEXT = new ParseField("text");
    static final ParseField LIKE = new ParseField("like");
    static final ParseField MAX_DISTANCE = new ParseField("max_distance");
    static final ParseField K = new ParseField("k");
    static final ParseField INCLUDE = new ParseField("include");
    static final ParseField FILTER = new ParseField("filter");
    /** The document a {@code like} query leaves out, once rewritten to the liked document's hash: part of the query's meaning. */
    static final ParseField EXCLUDE = new ParseField("exclude");
    /** The estimated Jaccard similarity a candidate's sketch must reach. */
    static final ParseField MIN_SIMILARITY = new ParseField("min_similarity");
    /** The query's similarity sketch with {@code hash} (what a {@code like} with {@code min_similarity} becomes), base64. */
    static final ParseField SKETCH = new ParseField("sketch");
    /** The largest {@code k}, as for {@code knn}. */
    public static final int MAX_K = 10_000;

    /** A reference to an indexed document whose fingerprint is the query ({@code index} null: search all indices). */
    public record Like(String index, String id, String routing) {
        public Like {
            if (id == null || id.isEmpty()) {
                throw new IllegalArgumentException("[like] requires a document [id]");
            }
        }

        String describe() {
            return index == null ? "[" + id + "]" : "[" + index + "/" + id + "]";
        }
    }

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
        if (s != null && !(s > 0 && s <= 1)) {
            throw new IllegalArgumentException("[" + MIN_SIMILARITY.getPreferredName() + "] must be greater than 0 and at most 1, got ["
                + s + "]");
        }
        this.minSimilarity = s;
        return this;
    }

    /** The query's similarity sketch with {@code hash}: exactly {@link MinHashSketch#BYTES} bytes of {@link MinHashSketch#V1}. */
    public SimHashQueryBuilder sketch(byte[] sketch) {
        if (sketch != null && sketch.length != MinHashSketch.BYTES) {
            throw new IllegalArgumentException("[" + SKETCH.getPreferredName() + "] must be the " + MinHashSketch.BYTES + " bytes of a ["
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
        if (maxDistance != null) {
            BlockProbes.checkMaxDistance(maxDistance);
        }
        this.maxDistance = maxDistance;
        return this;
    }

    /** Returns the k nearest documents of each shard (within {@code max_distance} when it is given too). */
    public SimHashQueryBuilder k(Integer k) {
        if (k != null && (k < 1 || k > MAX_K)) {
            throw new IllegalArgumentException("[k] must be between 1 and " + MAX_K + ", got [" + k + "]");
        }
        this.k = k;
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
            throw new IllegalArgumentException("[" + EXCLUDE.getPreferredName() + "] requires [index] and [id]");
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

    @Override
    protected void doXContent(XContentBuilder builder, Params params) throws IOException {
        builder.startObject(NAME);
        builder.field(FIELD.getPreferredName(), field);
        if (hash != null) {
            builder.field(HASH.getPreferredName(), SimHash.toHex(hash));
        }
        if (text != null) {
            builder.field(TEXT.getPreferredName(), text);
            for (String option : FingerprintSpec.OPTIONS) {
                if (textOptions.containsKey(option)) {
                    builder.field(option, textOptions.get(option));
                }
            }
        }
        if (like != null) {
            builder.startObject(LIKE.getPreferredName());
            if (like.index() != null) {
                builder.field("index", like.index());
            }
            builder.field("id", like.id());
            if (like.routing() != null) {
                builder.field("routing", like.routing());
            }
            builder.endObject();
            if (include) {
                builder.field(INCLUDE.getPreferredName(), true);
            }
        }
        if (excludeId != null) {
            builder.startObject(EXCLUDE.getPreferredName()).field("index", excludeIndex).field("id", excludeId).endObject();
        }
        if (sketch != null) {
            builder.field(SKETCH.getPreferredName(), Base64.getEncoder().encodeToString(sketch));
        }
        if (maxDistance != null) {
            builder.field(MAX_DISTANCE.getPreferredName(), maxDistance);
        }
        if (minSimilarity != null) {
            builder.field(MIN_SIMILARITY.getPreferredName(), minSimilarity);
        }
        if (k != null) {
            builder.field(K.getPreferredName(), k);
        }
        if (filter != null) {
            builder.field(FILTER.getPreferredName(), filter);
        }
        boostAndQueryNameToXContent(builder);
        builder.endObject();
    }

    /** The query's fields as sent, before validation (options: those given with {@code text}, in the order given). */
    private static final class Body {
        String field;
        Long hash;
        String text;
        Like like;
        Integer maxDistance;
        Double minSimilarity;
        byte[] sketch;
        Integer k;
        Boolean include;
        QueryBuilder filter;
        LikeBody exclude;
        final Map<String, Object> options = new LinkedHashMap<>();
        float boost = DEFAULT_BOOST;
        String queryName;

        /**
         * The one validation step: the combinations of inputs, then each value by the builder's setter (the messages they
         * give everywhere).
         *
         * @throws IllegalArgumentException naming the parameter
         */
        SimHashQueryBuilder build() {
            if (field == null) {
                throw new IllegalArgumentException("query requires [" + FIELD.getPreferredName() + "]");
            }
            int inputs = (hash != null ? 1 : 0) + (text != null ? 1 : 0) + (like != null ? 1 : 0);
            if (inputs != 1) {
                throw new IllegalArgumentException("query requires exactly one of [hash], [text] or [like], got " + inputs);
            }
            if (text == null && !options.isEmpty()) {
                throw new IllegalArgumentException(options.keySet().stream().map(o -> "[" + o + "]").toList() + " only apply to [text]");
            }
            if (include != null && like == null) {
                throw new IllegalArgumentException("[include] only applies to [like]");
            }
            if (exclude != null && hash == null) {
                throw new IllegalArgumentException("[exclude] only applies to [hash]");
            }
            if (sketch != null && hash == null) {
                throw new IllegalArgumentException("[sketch] only applies to [hash]");
            }
            SimHashQueryBuilder builder = new SimHashQueryBuilder(field);
            if (hash != null) {
                builder.hash(hash);
                if (exclude != null) {
                    builder.exclude(exclude.index, exclude.id);
                }
            } else if (text != null) {
                builder.text(text).textOptions(options);
            } else {
                builder.like(like).include(include != null && include);
            }
            builder.maxDistance(maxDistance).minSimilarity(minSimilarity).sketch(sketch).k(k).filter(filter);
            builder.checkSimilarityCombinations();
            return builder.boost(boost).queryName(queryName);
        }
    }

    /** The {@code like} and {@code exclude} objects' fields as sent. */
    private static final class LikeBody {
        String index;
        String id;
        String routing;
    }

    /** The fields with their types: malformed JSON, unknown fields and values of the wrong type fail here, located. */
    private static final ObjectParser<Body, Void> PARSER = new ObjectParser<>(NAME, Body::new);
    private static final ObjectParser<LikeBody, Void> LIKE_PARSER = new ObjectParser<>(LIKE.getPreferredName(), LikeBody::new);
    private static final ObjectParser<LikeBody, Void> EXCLUDE_PARSER = new ObjectParser<>(EXCLUDE.getPreferredName(), LikeBody::new);

    static {
        PARSER.declareString((b, v) -> b.field = v, FIELD);
        // a fingerprint: 16 hex digits or a signed 64-bit integer
        PARSER.declareField((b, v) -> b.hash = v,
            // (a whole number beyond 64 bits is read as text, so its error names [hash] rather than quoting the request body)
            (p, c) -> p.currentToken() == XContentParser.Token.VALUE_NUMBER && p.numberType() != XContentParser.NumberType.BIG_INTEGER
                ? p.longValue(false) : parseHash(p.text()), HASH,
            ObjectParser.ValueType.LONG);
        PARSER.declareString((b, v) -> b.text = v, TEXT);
        PARSER.declareField((b, v) -> b.like = v, (p, c) -> parseLike(p), LIKE, ObjectParser.ValueType.OBJECT_OR_STRING);
        // numbers as numbers: a fraction or a string is refused rather than rounded or read
        PARSER.declareField((b, v) -> b.maxDistance = v, (p, c) -> smallInt(p, MAX_DISTANCE, 0, SimHash.BITS), MAX_DISTANCE,
            ObjectParser.ValueType.INT);
        PARSER.declareField((b, v) -> b.minSimilarity = v, (p, c) -> p.doubleValue(false), MIN_SIMILARITY,
            ObjectParser.ValueType.DOUBLE);
        PARSER.declareField((b, v) -> b.sketch = v, (p, c) -> parseSketch(p.text()), SKETCH, ObjectParser.ValueType.STRING);
        PARSER.declareField((b, v) -> b.k = v, (p, c) -> smallInt(p, K, 1, MAX_K), K, ObjectParser.ValueType.INT);
        PARSER.declareBoolean((b, v) -> b.include = v, INCLUDE);
        PARSER.declareObject((b, v) -> b.filter = v, (p, c) -> parseInnerQueryBuilder(p), FILTER);
        for (String option : FingerprintSpec.OPTIONS) {
            // the fingerprint options as the processor takes them: strings or numbers, checked by FingerprintSpec
            PARSER.declareField((b, v) -> b.options.put(option, v),
                (p, c) -> p.currentToken() == XContentParser.Token.VALUE_NUMBER ? p.numberValue() : p.text(), new ParseField(option),
                ObjectParser.ValueType.VALUE);
        }
        PARSER.declareFloat((b, v) -> b.boost = v, BOOST_FIELD);
        PARSER.declareString((b, v) -> b.queryName = v, NAME_FIELD);
        PARSER.declareObject((b, v) -> b.exclude = v, (p, c) -> Declarations.parse(EXCLUDE_PARSER, p, null), EXCLUDE);
        for (ObjectParser<LikeBody, Void> document : List.of(LIKE_PARSER, EXCLUDE_PARSER)) {
            // ids and index names as the document APIs take them: strings, or numbers read as their text
            document.declareField((l, v) -> l.index = v, (p, c) -> p.text(), new ParseField("index"), ObjectParser.ValueType.VALUE);
            document.declareField((l, v) -> l.id = v, (p, c) -> p.text(), new ParseField("id"), ObjectParser.ValueType.VALUE);
        }
        LIKE_PARSER.declareField((l, v) -> l.routing = v, (p, c) -> p.text(), new ParseField("routing"), ObjectParser.ValueType.VALUE);
    }

    /**
     * Parses the query body; leaves the parser on its closing END_OBJECT. Malformed JSON, unknown fields and values of the
     * wrong type are {@link org.elasticsearch.xcontent.XContentParseException}s with their location, naming the field;
     * invalid values and combinations are {@link ParsingException}s naming the parameter.
     */
    public static SimHashQueryBuilder fromXContent(XContentParser parser) throws IOException {
        Body body = Declarations.parse(PARSER, parser, null);
        try {
            return body.build();
        } catch (IllegalArgumentException e) {
            throw new ParsingException(parser.getTokenLocation(), "[" + NAME + "] " + e.getMessage(), e);
        }
    }

    /**
     * The combinations of {@code min_similarity} and {@code sketch} with the other parameters.
     *
     * @throws IllegalArgumentException naming the parameters
     */
    void checkSimilarityCombinations() {
        if (minSimilarity != null && maxDistance != null) {
            throw new IllegalArgumentException("[max_distance] and [min_similarity] cannot both be given: [min_similarity] chooses "
                + "the candidate radius itself");
        }
        if (minSimilarity != null && hash != null && sketch == null) {
            throw new IllegalArgumentException("[min_similarity] needs the query's similarity sketch, and a bare [hash] has no sketch: "
                + "query with [text] or [like], or give the [sketch] with the [hash]");
        }
        if (sketch != null && minSimilarity == null && !usesDefaults()) {
            // without min_similarity, a sketch stands for the default threshold: a radius or k would contradict it
            throw new IllegalArgumentException("[sketch] only applies with [min_similarity], or with neither [max_distance] nor [k] (the "
                + "default threshold)");
        }
    }

    /**
     * An integer parameter whose range is small: a whole number beyond an int is out of that range, and says so naming the
     * parameter (the JSON parser's own message would quote the whole request body).
     */
    private static int smallInt(XContentParser p, ParseField name, int min, int max) throws IOException {
        if (p.currentToken() == XContentParser.Token.VALUE_NUMBER
            && (p.numberType() == XContentParser.NumberType.LONG || p.numberType() == XContentParser.NumberType.BIG_INTEGER)) {
            throw new IllegalArgumentException("[" + name.getPreferredName() + "] must be between " + min + " and " + max + ", got ["
                + SimHash.abbreviate(p.text()) + "]");
        }
        return p.intValue(false);
    }

    /** {@code sketch}: the base64 of exactly {@link MinHashSketch#BYTES} bytes. */
    static byte[] parseSketch(String value) {
        byte[] bytes;
        try {
            bytes = Base64.getDecoder().decode(value);
        } catch (IllegalArgumentException e) {
            // not chained: the decoder's own message ("Illegal base64 character a" for a line feed) would only mislead
            throw new IllegalArgumentException("[" + SKETCH.getPreferredName() + "] must be base64 of " + MinHashSketch.BYTES
                + " bytes, the [" + MinHashSketch.ALGORITHM + "] sketch as the [fields] option returns it with the format ["
                + MinHashSketch.ALGORITHM + "] (one line, no spaces), got [" + SimHash.describe(value) + "]");
        }
        if (bytes.length != MinHashSketch.BYTES) {
            throw new IllegalArgumentException("[" + SKETCH.getPreferredName() + "] must be the " + MinHashSketch.BYTES + " bytes of a ["
                + MinHashSketch.ALGORITHM + "] sketch, got [" + bytes.length + "] bytes");
        }
        return bytes;
    }

    static long parseHash(String value) {
        try {
            return SimHash.parse(value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("[hash] " + e.getMessage());
        }
    }

    /** {@code like}: a document id, or an object with {@code id} and optionally {@code index} and {@code routing}. */
    private static Like parseLike(XContentParser parser) throws IOException {
        if (parser.currentToken() == XContentParser.Token.START_OBJECT) {
            LikeBody like = Declarations.parse(LIKE_PARSER, parser, null);
            if (like.id == null) {
                throw new IllegalArgumentException("[" + LIKE.getPreferredName() + "] requires [id]");
            }
            return new Like(like.index, like.id, like.routing);
        }
        return new Like(null, parser.text(), null);
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
        if (minSimilarity != null) {
            return minSimilarity;
        }
        boolean hasQuerySketch = text != null || sketch != null;
        if (usesDefaults() && hasQuerySketch && fp.isFieldType() && fp.fieldType().sketch() != null) {
            return MinHashSketch.DEFAULT_MIN_SIMILARITY;
        }
        return null;
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
            SketchCheck check = new SketchCheck(fp.fieldType().name(), fp.fieldType().sketch(), querySketch, s);
            // candidates: sharing a sketch band at thresholds the bands cover, else within the threshold's radius
            Query verified = SketchBands.covers(s) ? SketchBandQuery.of(check, fp.fieldType().bandValuesHeld(context))
                : new SimHashQuery(fp.docValuesField(), fp.blocks(), h, CandidateRadius.radius(s), check);
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
            throw new IllegalArgumentException("[" + NAME + "] [" + MIN_SIMILARITY.getPreferredName() + "] needs a similarity sketch, but ["
                + field + "] stores none: " + noSketchReason(fp) + "; use [max_distance], or map a [simhash] field with ["
                + SimHashFieldMapper.SKETCH + "] = [" + MinHashSketch.ALGORITHM + "] (the default of new simhash-v2 text fields)");
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
            throw new IllegalArgumentException("[" + NAME + "] [" + MIN_SIMILARITY.getPreferredName() + "] needs the query's similarity "
                + "sketch, and a bare [hash] has no sketch: query with [text] or [like], or give the [sketch] with the [hash]");
        }
        return sketch;
    }

    private static String noSketchReason(FingerprintField fp) {
        if (!fp.isFieldType()) {
            return "it is the object the simhash processor writes, which holds fingerprints only";
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
