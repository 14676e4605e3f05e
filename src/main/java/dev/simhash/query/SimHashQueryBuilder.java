package dev.simhash.query;

import dev.simhash.core.BlockProbes;
import dev.simhash.core.FeatureAnalyzer;
import dev.simhash.core.FingerprintFields;
import dev.simhash.core.FingerprintOptions;
import dev.simhash.core.SimHash;
import dev.simhash.core.TextFingerprinter;
import dev.simhash.core.Weighting;

import org.apache.lucene.analysis.Analyzer;
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
import org.elasticsearch.index.mapper.MappedFieldType;
import org.elasticsearch.index.query.IdsQueryBuilder;
import org.elasticsearch.index.query.LeafQueryBuilder;
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
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.function.Supplier;

/**
 * The {@code simhash} query: documents whose stored fingerprint is within {@code max_distance} bits
 * of a hash, of the fingerprint of a text, or of an indexed document's fingerprint. Exact for every
 * distance 0..64; scored (64 - distance) / 64 times boost.
 */
public final class SimHashQueryBuilder extends LeafQueryBuilder<SimHashQueryBuilder> {

    public static final String NAME = "simhash";
    public static final int DEFAULT_MAX_DISTANCE = 3;

    static final ParseField FIELD = new ParseField("field");
    static final ParseField HASH = new ParseField("hash");
    static final ParseField TEXT = new ParseField("text");
    static final ParseField LIKE = new ParseField("like");
    static final ParseField MAX_DISTANCE = new ParseField("max_distance");
    static final ParseField ANALYZER = new ParseField("analyzer");
    static final ParseField SHINGLE_SIZE = new ParseField("shingle_size");
    static final ParseField WEIGHTING = new ParseField("weighting");
    static final ParseField MIN_FEATURES = new ParseField("min_features");

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
    private String analyzer = FeatureAnalyzer.DEFAULT.optionName();
    private FingerprintOptions options = FingerprintOptions.DEFAULTS;
    private Like like;
    private int maxDistance = DEFAULT_MAX_DISTANCE;
    private final Supplier<Long> likeSupplier;

    public SimHashQueryBuilder(String field) {
        this(field, null);
    }

    private SimHashQueryBuilder(String field, Supplier<Long> likeSupplier) {
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
        analyzer = in.readString();
        options = new FingerprintOptions(in.readVInt(), Weighting.fromOption(in.readString()), in.readVInt());
        if (in.readBoolean()) {
            like = new Like(in.readOptionalString(), in.readString(), in.readOptionalString());
        }
        maxDistance = in.readVInt();
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
        out.writeString(analyzer);
        out.writeVInt(options.shingleSize());
        out.writeString(options.weighting().optionName());
        out.writeVInt(options.minFeatures());
        out.writeBoolean(like != null);
        if (like != null) {
            out.writeOptionalString(like.index());
            out.writeString(like.id());
            out.writeOptionalString(like.routing());
        }
        out.writeVInt(maxDistance);
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

    /** Analyzer name used to fingerprint {@code text}. */
    public String analyzer() {
        return analyzer;
    }

    /** Feature settings used to fingerprint {@code text}. */
    public FingerprintOptions textOptions() {
        return options;
    }

    public int maxDistance() {
        return maxDistance;
    }

    public SimHashQueryBuilder hash(long hash) {
        this.hash = hash;
        return this;
    }

    public SimHashQueryBuilder text(String text) {
        this.text = Objects.requireNonNull(text, "[text] must not be null");
        return this;
    }

    /** Feature settings used to fingerprint {@code text}: the same names and defaults as the ingest processor. */
    public SimHashQueryBuilder textOptions(String analyzer, FingerprintOptions options) {
        this.analyzer = Objects.requireNonNull(analyzer, "[analyzer] must not be null");
        this.options = Objects.requireNonNull(options);
        return this;
    }

    public SimHashQueryBuilder like(Like like) {
        this.like = like;
        return this;
    }

    public SimHashQueryBuilder maxDistance(int maxDistance) {
        BlockProbes.checkMaxDistance(maxDistance);
        this.maxDistance = maxDistance;
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
            builder.field(ANALYZER.getPreferredName(), analyzer);
            builder.field(SHINGLE_SIZE.getPreferredName(), options.shingleSize());
            builder.field(WEIGHTING.getPreferredName(), options.weighting().optionName());
            builder.field(MIN_FEATURES.getPreferredName(), options.minFeatures());
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
        }
        builder.field(MAX_DISTANCE.getPreferredName(), maxDistance);
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
        String analyzer = FeatureAnalyzer.DEFAULT.optionName();
        Integer shingleSize = null;
        String weighting = null;
        Integer minFeatures = null;
        float boost = DEFAULT_BOOST;
        String queryName = null;
        String current = null;
        XContentParser.Token token;
        while ((token = parser.nextToken()) != XContentParser.Token.END_OBJECT) {
            if (token == XContentParser.Token.FIELD_NAME) {
                current = parser.currentName();
            } else if (token == XContentParser.Token.START_OBJECT && LIKE.match(current, parser.getDeprecationHandler())) {
                like = parseLike(parser);
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
                    } else if (ANALYZER.match(current, parser.getDeprecationHandler())) {
                        analyzer = parser.text();
                    } else if (SHINGLE_SIZE.match(current, parser.getDeprecationHandler())) {
                        shingleSize = parser.intValue(false);
                    } else if (WEIGHTING.match(current, parser.getDeprecationHandler())) {
                        weighting = parser.text();
                    } else if (MIN_FEATURES.match(current, parser.getDeprecationHandler())) {
                        minFeatures = parser.intValue(false);
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
        if (text == null && (shingleSize != null || weighting != null || minFeatures != null
            || !analyzer.equals(FeatureAnalyzer.DEFAULT.optionName()))) {
            throw new ParsingException(parser.getTokenLocation(),
                "[" + NAME + "] [analyzer], [shingle_size], [weighting] and [min_features] only apply to [text]");
        }
        SimHashQueryBuilder builder = new SimHashQueryBuilder(field);
        try {
            if (hash != null) {
                builder.hash(hash);
            } else if (text != null) {
                builder.text(text).textOptions(analyzer, new FingerprintOptions(
                    shingleSize == null ? FingerprintOptions.DEFAULT_SHINGLE_SIZE : shingleSize,
                    weighting == null ? Weighting.DEFAULT : weightingOption(weighting),
                    minFeatures == null ? FingerprintOptions.DEFAULT_MIN_FEATURES : minFeatures));
            } else {
                builder.like(like);
            }
            if (maxDistance != null) {
                builder.maxDistance(maxDistance);
            }
        } catch (IllegalArgumentException e) {
            throw new ParsingException(parser.getTokenLocation(), "[" + NAME + "] " + e.getMessage(), e);
        }
        return builder.boost(boost).queryName(queryName);
    }

    private static Weighting weightingOption(String value) {
        try {
            return Weighting.fromOption(value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("[weighting] " + e.getMessage());
        }
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

    private SimHashQueryBuilder withHash(long resolved) {
        return new SimHashQueryBuilder(field).hash(resolved).maxDistance(maxDistance).boost(boost()).queryName(queryName());
    }

    @Override
    protected QueryBuilder doRewrite(QueryRewriteContext context) throws IOException {
        if (likeSupplier != null) {
            Long resolved = likeSupplier.get();
            return resolved == null ? this : withHash(resolved);
        }
        if (like != null && hash == null) {
            SetOnce<Long> fetched = new SetOnce<>();
            Like ref = like;
            context.registerAsyncAction((client, listener) -> fetchLike(client, ref, listener.map(h -> {
                fetched.set(h);
                return null;
            })));
            SimHashQueryBuilder pending = new SimHashQueryBuilder(field, fetched::get);
            pending.like = like;
            return pending.maxDistance(maxDistance).boost(boost()).queryName(queryName());
        }
        if (text != null && hash == null && isBuiltIn(analyzer)) {
            // built-in analyzers need no index: fingerprint once on the coordinating node
            return withHash(fingerprintText(FeatureAnalyzer.fromOption(analyzer).analyzer()));
        }
        return super.doRewrite(context);
    }

    private static boolean isBuiltIn(String analyzer) {
        for (FeatureAnalyzer a : FeatureAnalyzer.values()) {
            if (a.optionName().equals(analyzer)) {
                return true;
            }
        }
        return false;
    }

    private long fingerprintText(Analyzer a) {
        OptionalLong fp = new TextFingerprinter(a, options).fingerprint(text);
        if (fp.isEmpty()) {
            throw new IllegalArgumentException("[text] has no fingerprint: fewer than [min_features] = " + options.minFeatures()
                + " distinct features after analysis with [" + analyzer + "]");
        }
        return fp.getAsLong();
    }

    /**
     * The liked document's fingerprint. With an index: a realtime GET, whose {@code _source} gives it when the processor
     * wrote it there as a number; otherwise (source disabled or filtered, a hash sent as a string) it is read from doc
     * values, the way the query reads every other document's fingerprint. Without an index: from doc values, through a
     * search for the id in every index.
     */
    private void fetchLike(Client client, Like ref, ActionListener<Long> listener) {
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
                listener.onResponse(fromSource);
            } else {
                fetchLikeFromDocValues(client, ref, new String[] { ref.index() }, listener);
            }
        }, listener::onFailure));
    }

    private void fetchLikeFromDocValues(Client client, Like ref, String[] indices, ActionListener<Long> listener) {
        String hashPath = FingerprintFields.hashPath(field);
        SearchRequest search = new SearchRequest(indices).routing(ref.routing()).source(new SearchSourceBuilder()
            .query(new IdsQueryBuilder().addIds(ref.id())).size(2).fetchSource(false).docValueField(hashPath));
        client.search(search, listener.map(response -> {
            SearchHit[] hits = response.getHits().getHits();
            if (hits.length == 0) {
                if (indices.length > 0) {
                    // the realtime GET found it: it exists but is not searchable yet, and its _source has no fingerprint
                    throw new IllegalArgumentException("[like] document " + ref.describe() + " has no fingerprint in [" + hashPath
                        + "] in its _source, and is not searchable yet to read it from doc values (refresh the index)");
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
            Object value = values == null || values.getValues().isEmpty() ? null : values.getValues().get(0);
            if (value instanceof Number n) {
                return n.longValue();
            }
            throw new IllegalArgumentException("[like] document " + ref.describe() + " has no fingerprint in [" + hashPath + "]");
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
        String hashPath = FingerprintFields.hashPath(field);
        MappedFieldType hashType = context.getFieldType(hashPath);
        String[] blockPaths = new String[SimHash.BLOCKS];
        MappedFieldType[] blockTypes = new MappedFieldType[SimHash.BLOCKS];
        boolean anyMapped = hashType != null;
        for (int j = 0; j < SimHash.BLOCKS; j++) {
            blockPaths[j] = FingerprintFields.blockPath(field, j);
            blockTypes[j] = context.getFieldType(blockPaths[j]);
            anyMapped |= blockTypes[j] != null;
        }
        MappedFieldType leaf = context.getFieldType(field);
        if (leaf != null) {
            throw new IllegalArgumentException("[" + NAME + "] [field] [" + field + "] is a [" + leaf.typeName() + "] field; it must name "
                + "the object the simhash processor writes (with [hash] and [b0]..[b3] under it)");
        }
        if (!anyMapped) {
            // like other queries on a field this index does not have (e.g. in a multi-index search): no match, no failure
            return new MatchNoDocsQuery("[" + NAME + "] fields under [" + field + "] are not mapped");
        }
        if (hashType == null || !"long".equals(hashType.typeName()) || !hashType.hasDocValues()) {
            throw new IllegalArgumentException("[" + NAME + "] [field] [" + hashPath + "] must be mapped as [long] with doc values, found ["
                + (hashType == null ? "unmapped" : hashType.typeName()) + "]: declare the fingerprint mapping described in the README");
        }
        for (int j = 0; j < SimHash.BLOCKS; j++) {
            if (blockTypes[j] == null || !"keyword".equals(blockTypes[j].typeName()) || !blockTypes[j].isSearchable()) {
                throw new IllegalArgumentException("[" + NAME + "] [field] [" + blockPaths[j] + "] must be mapped as an indexed [keyword], "
                    + "found [" + (blockTypes[j] == null ? "unmapped" : blockTypes[j].typeName())
                    + "]: declare the fingerprint mapping described in the README");
            }
        }
        long h;
        if (hash != null) {
            h = hash;
        } else if (text != null) {
            Analyzer a = isBuiltIn(analyzer) ? FeatureAnalyzer.fromOption(analyzer).analyzer() : context.getIndexAnalyzers().get(analyzer);
            if (a == null) {
                throw new IllegalArgumentException("[" + NAME + "] [analyzer] unknown analyzer [" + analyzer + "]");
            }
            h = fingerprintText(a);
        } else {
            throw new IllegalStateException("[" + NAME + "] query with [like] was not rewritten before execution");
        }
        return new SimHashQuery(hashType.name(), blockPaths, h, maxDistance);
    }

    @Override
    protected boolean doEquals(SimHashQueryBuilder other) {
        return field.equals(other.field)
            && Objects.equals(hash, other.hash)
            && Objects.equals(text, other.text)
            && analyzer.equals(other.analyzer)
            && options.equals(other.options)
            && Objects.equals(like, other.like)
            && maxDistance == other.maxDistance
            && Objects.equals(likeSupplier, other.likeSupplier);
    }

    @Override
    protected int doHashCode() {
        return Objects.hash(field, hash, text, analyzer, options, like, maxDistance, likeSupplier);
    }
}
