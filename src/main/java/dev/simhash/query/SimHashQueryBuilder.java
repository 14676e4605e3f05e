package dev.simhash.query;

import dev.simhash.compat.CompatLeafQueryBuilder;
import dev.simhash.core.BlockProbes;
import dev.simhash.core.FingerprintFields;
import dev.simhash.core.FeatureWeights;
import dev.simhash.core.FingerprintSpec;
import dev.simhash.core.SimHash;
import dev.simhash.core.TextFingerprinter;
import dev.simhash.mapper.FingerprintField;
import dev.simhash.mapper.SimHashFieldType;

import org.apache.lucene.search.MatchNoDocsQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.util.SetOnce;
import org.elasticsearch.ResourceNotFoundException;
import org.elasticsearch.TransportVersion;
import org.elasticsearch.action.ActionListener;
import org.elasticsearch.action.get.GetRequest;
import org.elasticsearch.action.search.SearchRequest;
import org.elasticsearch.client.internal.Client;
import org.elasticsearch.common.ParsingException;
import org.elasticsearch.common.document.DocumentField;
import org.elasticsearch.common.io.stream.StreamInput;
import org.elasticsearch.common.io.stream.StreamOutput;
import org.elasticsearch.common.xcontent.support.XContentMapValues;
import org.elasticsearch.index.query.IdsQueryBuilder;
import org.elasticsearch.index.query.QueryBuilder;
import org.elasticsearch.index.query.QueryRewriteContext;
import org.elasticsearch.index.query.SearchExecutionContext;
import org.elasticsearch.search.SearchHit;
import org.elasticsearch.search.builder.SearchSourceBuilder;
import org.elasticsearch.search.fetch.subphase.FetchSourceContext;
import org.elasticsearch.xcontent.ParseField;
import org.elasticsearch.xcontent.XContentBuilder;
import org.elasticsearch.xcontent.XContentParser;

import java.io.IOException;
import java.util.ArrayList;
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
 * times boost. The field is a {@code simhash} field or the object the ingest processor writes.
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

    /** The liked document once fetched: its fingerprint and the concrete index it was found in. */
    record LikedDocument(long hash, String index) {}

    private final String field;
    private Long hash;
    private String text;
    /** Fingerprint options given with {@code text}, as users write them (only those given: the rest come from the field). */
    private Map<String, Object> textOptions = Map.of();
    private Like like;
    private boolean include;
    private Integer maxDistance;
    private Integer k;
    /** Only documents matching it are considered (for {@code k}: before the nearest are chosen); null: all. */
    private QueryBuilder filter;
    /** After a {@code like} is fetched without {@code include}: the liked document, left out of the hits. */
    private String excludeIndex;
    private String excludeId;
    private final Supplier<LikedDocument> likeSupplier;
    /** Where {@code text}'s {@code weights} table is found (the node's registry; set by the plugin, not serialized). */
    private FeatureWeights.Tables weightTables;

    public SimHashQueryBuilder(String field) {
        this(field, null);
    }

    private SimHashQueryBuilder(String field, Supplier<LikedDocument> likeSupplier) {
        if (field == null || field.isEmpty()) {
            throw new IllegalArgumentException("[" + NAME + "] requires a non-empty [field]");
        }
        this.field = field;
        this.likeSupplier = likeSupplier;
    }

    public SimHashQueryBuilder(StreamInput in) throws IOException {
        super(in);
        field = in.readString();
        hash = in.readOptionalLong();
        text = in.readOptionalString();
        textOptions = in.readGenericMap();
        if (in.readBoolean()) {
            like = new Like(in.readOptionalString(), in.readString(), in.readOptionalString());
        }
        include = in.readBoolean();
        maxDistance = in.readOptionalVInt();
        k = in.readOptionalVInt();
        filter = in.readOptionalNamedWriteable(QueryBuilder.class);
        excludeIndex = in.readOptionalString();
        excludeId = in.readOptionalString();
        likeSupplier = null;
    }

    @Override
    protected void doWriteTo(StreamOutput out) throws IOException {
        if (likeSupplier != null) {
            throw new IllegalStateException("the [like] document must be fetched before the query is sent to shards (missing rewrite)");
        }
        out.writeString(field);
        out.writeOptionalLong(hash);
        out.writeOptionalString(text);
        out.writeGenericMap(textOptions);
        out.writeBoolean(like != null);
        if (like != null) {
            out.writeOptionalString(like.index());
            out.writeString(like.id());
            out.writeOptionalString(like.routing());
        }
        out.writeBoolean(include);
        out.writeOptionalVInt(maxDistance);
        out.writeOptionalVInt(k);
        out.writeOptionalNamedWriteable(filter);
        out.writeOptionalString(excludeIndex);
        out.writeOptionalString(excludeId);
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

    /** The radius given as {@code max_distance}, or null: then the field's default (with {@code k}: 64, i.e. no limit). */
    public Integer maxDistance() {
        return maxDistance;
    }

    /**
     * The radius on a field: {@code max_distance}; with {@code k} and no radius 64 (no limit); else the field's version default
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

    @Override
    public String getWriteableName() {
        return NAME;
    }

    @Override
    public TransportVersion getMinimalSupportedVersion() {
        return TransportVersion.zero();
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
        if (maxDistance != null) {
            builder.field(MAX_DISTANCE.getPreferredName(), maxDistance);
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

    /** Parses the query body; leaves the parser on its closing END_OBJECT. */
    public static SimHashQueryBuilder fromXContent(XContentParser parser) throws IOException {
        String field = null;
        Long hash = null;
        String text = null;
        Like like = null;
        Integer maxDistance = null;
        Integer k = null;
        Boolean include = null;
        QueryBuilder filter = null;
        Map<String, Object> options = new LinkedHashMap<>();
        float boost = DEFAULT_BOOST;
        String queryName = null;
        String current = null;
        XContentParser.Token token;
        while ((token = parser.nextToken()) != XContentParser.Token.END_OBJECT) {
            if (token == XContentParser.Token.FIELD_NAME) {
                current = parser.currentName();
            } else if (token == XContentParser.Token.START_OBJECT && LIKE.match(current, parser.getDeprecationHandler())) {
                like = parseLike(parser);
            } else if (token == XContentParser.Token.START_OBJECT && FILTER.match(current, parser.getDeprecationHandler())) {
                filter = parseInnerQueryBuilder(parser);
            } else if (token.isValue()) {
                try {
                    if (FIELD.match(current, parser.getDeprecationHandler())) {
                        field = parser.text();
                    } else if (HASH.match(current, parser.getDeprecationHandler())) {
                        hash = token == XContentParser.Token.VALUE_NUMBER ? parser.longValue(false) : parseHash(parser.text());
                    } else if (TEXT.match(current, parser.getDeprecationHandler())) {
                        text = parser.text();
                    } else if (LIKE.match(current, parser.getDeprecationHandler())) {
                        like = new Like(null, parser.text(), null);
                    } else if (MAX_DISTANCE.match(current, parser.getDeprecationHandler())) {
                        maxDistance = parser.intValue(false);
                    } else if (K.match(current, parser.getDeprecationHandler())) {
                        k = parser.intValue(false);
                    } else if (INCLUDE.match(current, parser.getDeprecationHandler())) {
                        include = parser.booleanValue();
                    } else if (FingerprintSpec.OPTIONS.contains(current)) {
                        options.put(current, token == XContentParser.Token.VALUE_NUMBER ? parser.numberValue() : parser.text());
                    } else if (BOOST_FIELD.match(current, parser.getDeprecationHandler())) {
                        boost = parser.floatValue();
                    } else if (NAME_FIELD.match(current, parser.getDeprecationHandler())) {
                        queryName = parser.text();
                    } else {
                        throw new ParsingException(parser.getTokenLocation(), "[" + NAME + "] query does not support [" + current + "]");
                    }
                } catch (IllegalArgumentException e) {
                    // e.g. a number that does not fit: name the parameter
                    String message = e.getMessage() != null && e.getMessage().startsWith("[" + current + "]") ? e.getMessage()
                        : "[" + current + "] " + e.getMessage();
                    throw new ParsingException(parser.getTokenLocation(), "[" + NAME + "] " + message.replace("{", "(").replace("}", ")"), e);
                }
            } else {
                throw new ParsingException(parser.getTokenLocation(),
                    "[" + NAME + "] unexpected token [" + token + "] for [" + current + "]");
            }
        }
        if (field == null) {
            throw new ParsingException(parser.getTokenLocation(), "[" + NAME + "] query requires [field]");
        }
        int inputs = (hash != null ? 1 : 0) + (text != null ? 1 : 0) + (like != null ? 1 : 0);
        if (inputs != 1) {
            throw new ParsingException(parser.getTokenLocation(),
                "[" + NAME + "] query requires exactly one of [hash], [text] or [like], got " + inputs);
        }
        if (text == null && !options.isEmpty()) {
            throw new ParsingException(parser.getTokenLocation(),
                "[" + NAME + "] " + options.keySet().stream().map(o -> "[" + o + "]").toList() + " only apply to [text]");
        }
        if (include != null && like == null) {
            throw new ParsingException(parser.getTokenLocation(), "[" + NAME + "] [include] only applies to [like]");
        }
        SimHashQueryBuilder builder = new SimHashQueryBuilder(field);
        try {
            if (hash != null) {
                builder.hash(hash);
            } else if (text != null) {
                builder.text(text).textOptions(options);
            } else {
                builder.like(like).include(include != null && include);
            }
            builder.maxDistance(maxDistance).k(k).filter(filter);
        } catch (IllegalArgumentException e) {
            throw new ParsingException(parser.getTokenLocation(), "[" + NAME + "] " + e.getMessage(), e);
        }
        return builder.boost(boost).queryName(queryName);
    }

    static long parseHash(String value) {
        try {
            return SimHash.parse(value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("[hash] " + e.getMessage());
        }
    }

    private static Like parseLike(XContentParser parser) throws IOException {
        String index = null;
        String id = null;
        String routing = null;
        String current = null;
        XContentParser.Token token;
        while ((token = parser.nextToken()) != XContentParser.Token.END_OBJECT) {
            if (token == XContentParser.Token.FIELD_NAME) {
                current = parser.currentName();
            } else if (token.isValue() && "index".equals(current)) {
                index = parser.text();
            } else if (token.isValue() && "id".equals(current)) {
                id = parser.text();
            } else if (token.isValue() && "routing".equals(current)) {
                routing = parser.text();
            } else {
                throw new ParsingException(parser.getTokenLocation(), "[" + NAME + "] [like] does not support [" + current + "]");
            }
        }
        if (id == null) {
            throw new ParsingException(parser.getTokenLocation(), "[" + NAME + "] [like] requires [id]");
        }
        return new Like(index, id, routing);
    }

    /** Where the tables named by {@code text}'s {@code weights} option are found (the node's registry); not serialized. */
    public SimHashQueryBuilder weightTables(FeatureWeights.Tables tables) {
        this.weightTables = tables;
        return this;
    }

    /** This query with every parameter, waiting for {@code likeSupplier} (null: none). */
    private SimHashQueryBuilder copy(Supplier<LikedDocument> supplier) {
        SimHashQueryBuilder c = new SimHashQueryBuilder(field, supplier);
        c.hash = hash;
        c.text = text;
        c.textOptions = textOptions;
        c.like = like;
        c.include = include;
        c.maxDistance = maxDistance;
        c.k = k;
        c.filter = filter;
        c.excludeIndex = excludeIndex;
        c.excludeId = excludeId;
        c.weightTables = weightTables;
        return c.boost(boost()).queryName(queryName());
    }

    /** The query for the fetched liked document: its hash, leaving the document out unless {@code include}. */
    private SimHashQueryBuilder withLiked(LikedDocument liked) {
        SimHashQueryBuilder b = copy(null);
        b.hash = liked.hash();
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
            LikedDocument liked = likeSupplier.get();
            return liked == null ? this : withLiked(liked);
        }
        if (like != null && hash == null) {
            SetOnce<LikedDocument> fetched = new SetOnce<>();
            Like ref = like;
            context.registerAsyncAction((client, listener) -> fetchLike(client, ref, listener.map(liked -> {
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

    /**
     * The liked document's fingerprint. With an index: a realtime GET, whose {@code _source} gives it when the processor
     * wrote it there as a number; otherwise (source disabled or filtered, a hash sent as a string) it is read from doc
     * values, the way the query reads every other document's fingerprint. Without an index: from doc values, through a
     * search for the id in every index.
     */
    private void fetchLike(Client client, Like ref, ActionListener<LikedDocument> listener) {
        String hashPath = FingerprintFields.hashPath(field);
        if (ref.index() == null) {
            fetchLikeFromDocValues(client, ref, new String[0], listener);
            return;
        }
        GetRequest get = new GetRequest(ref.index(), ref.id()).routing(ref.routing()).preference("_local")
            .fetchSourceContext(FetchSourceContext.of(true, new String[] { hashPath }, null));
        client.get(get, ActionListener.wrap(response -> {
            if (!response.isExists()) {
                throw new ResourceNotFoundException("[like] document " + ref.describe() + " not found");
            }
            Long fromSource = numericHash(response.isSourceEmpty() ? null : response.getSourceAsMap(), hashPath);
            if (fromSource != null) {
                listener.onResponse(new LikedDocument(fromSource, response.getIndex()));
            } else {
                fetchLikeFromDocValues(client, ref, new String[] { ref.index() }, listener);
            }
        }, listener::onFailure));
    }

    private void fetchLikeFromDocValues(Client client, Like ref, String[] indices, ActionListener<LikedDocument> listener) {
        String hashPath = FingerprintFields.hashPath(field);
        // a simhash field holds the fingerprint in its own doc values, the object form in [hash]; the name that is not a
        // field of the index is ignored by docvalue_fields
        SearchRequest search = new SearchRequest(indices).routing(ref.routing()).source(new SearchSourceBuilder()
            .query(new IdsQueryBuilder().addIds(ref.id())).size(2).fetchSource(false).docValueField(hashPath)
            .docValueField(field, "long"));
        client.search(search, listener.map(response -> {
            SearchHit[] hits = response.getHits().getHits();
            if (hits.length == 0) {
                if (indices.length > 0) {
                    // the realtime GET found it: it exists but is not searchable yet, and its _source has no fingerprint
                    throw new IllegalArgumentException("[like] document " + ref.describe() + " is not searchable yet, so its fingerprint "
                        + "cannot be read from the doc values of [" + field + "] (refresh the index)");
                }
                throw new ResourceNotFoundException("[like] document " + ref.describe() + " not found in any index");
            }
            if (hits.length > 1) {
                List<String> found = new ArrayList<>();
                for (SearchHit h : hits) {
                    found.add(h.getIndex());
                }
                throw new IllegalArgumentException("[like] document " + ref.describe() + " exists in several indices " + found
                    + ": set [like.index]");
            }
            DocumentField values = hits[0].field(hashPath);
            if (values == null) {
                values = hits[0].field(field);
            }
            Object value = values == null || values.getValues().isEmpty() ? null : values.getValues().get(0);
            if (value instanceof Number n) {
                return new LikedDocument(n.longValue(), hits[0].getIndex());
            }
            throw new IllegalArgumentException("[like] document " + ref.describe() + " has no fingerprint in [" + field + "]");
        }));
    }

    /** The hash from the processor's object in _source when it is a JSON number; null otherwise (read doc values then). */
    private static Long numericHash(Map<String, Object> source, String hashPath) {
        Object value = source == null ? null : XContentMapValues.extractValue(hashPath, source);
        if (value instanceof List<?> list && list.size() == 1) {
            value = list.get(0);
        }
        // a string would be coerced by the long field as a decimal: leave every string to the doc values, never guess
        return value instanceof Long || value instanceof Integer ? ((Number) value).longValue() : null;
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
        Query exclude = excludeId != null && context.index().getName().equals(excludeIndex)
            ? new IdsQueryBuilder().addIds(excludeId).toQuery(context) : null;
        Query only = filter == null ? null : filter.toQuery(context);
        int radius = maxDistance(fp);
        if (k != null) {
            return new SimHashNearestQuery(fp.docValuesField(), fp.blocks(), h, only, exclude, k, radius);
        }
        return SimHashNearestQuery.within(fp.docValuesField(), fp.blocks(), h, radius, only, exclude);
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
            && Objects.equals(k, other.k)
            && Objects.equals(filter, other.filter)
            && Objects.equals(excludeIndex, other.excludeIndex)
            && Objects.equals(excludeId, other.excludeId)
            && Objects.equals(likeSupplier, other.likeSupplier);
    }

    @Override
    protected int doHashCode() {
        return Objects.hash(field, hash, text, textOptions, like, include, maxDistance, k, filter, excludeIndex, excludeId, likeSupplier);
    }
}
