package dev.simhash.query;

import dev.simhash.core.FingerprintSpec;
import dev.simhash.core.MinHashSketch;
import dev.simhash.core.SimHash;
import dev.simhash.request.Declarations;
import dev.simhash.threshold.Thresholds;

import org.elasticsearch.common.ParsingException;
import org.elasticsearch.index.query.AbstractQueryBuilder;
import org.elasticsearch.index.query.QueryBuilder;
import org.elasticsearch.xcontent.ObjectParser;
import org.elasticsearch.xcontent.ParseField;
import org.elasticsearch.xcontent.XContentBuilder;
import org.elasticsearch.xcontent.XContentParser;

import java.io.IOException;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code simhash} query's JSON, both ways: {@link #parse} reads a body into a {@link SimHashQueryBuilder} (types and
 * unknown fields checked by {@link ObjectParser}, located; values and combinations by the builder's setters, the
 * thresholds by {@link Thresholds}), and {@link #write} writes what it reads back.
 */
final class QueryBody {

    static final ParseField FIELD = new ParseField("field");
    static final ParseField HASH = new ParseField("hash");
    static final ParseField TEXT = new ParseField("text");
    static final ParseField LIKE = new ParseField("like");
    static final ParseField MAX_DISTANCE = new ParseField(Thresholds.MAX_DISTANCE);
    static final ParseField K = new ParseField(Thresholds.K);
    static final ParseField INCLUDE = new ParseField("include");
    static final ParseField FILTER = new ParseField("filter");
    /** The document a {@code like} query leaves out, once rewritten to the liked document's hash: part of the query's meaning. */
    static final ParseField EXCLUDE = new ParseField("exclude");
    /** The estimated Jaccard similarity a candidate's sketch must reach. */
    static final ParseField MIN_SIMILARITY = new ParseField(Thresholds.MIN_SIMILARITY);
    /** The query's similarity sketch with {@code hash} (what a {@code like} with {@code min_similarity} becomes), base64. */
    static final ParseField SKETCH = new ParseField("sketch");

    private QueryBody() {}

    /**
     * Parses the query body; leaves the parser on its closing END_OBJECT. Malformed JSON, unknown fields and values of the
     * wrong type are {@link org.elasticsearch.xcontent.XContentParseException}s with their location, naming the field;
     * invalid values and combinations are {@link ParsingException}s naming the parameter.
     */
    static SimHashQueryBuilder parse(XContentParser parser) throws IOException {
        Body body = Declarations.parse(PARSER, parser, null);
        try {
            return body.build();
        } catch (IllegalArgumentException e) {
            throw new ParsingException(parser.getTokenLocation(), "[" + SimHashQueryBuilder.NAME + "] " + e.getMessage(), e);
        }
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
        float boost = AbstractQueryBuilder.DEFAULT_BOOST;
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
    private static final ObjectParser<Body, Void> PARSER = new ObjectParser<>(SimHashQueryBuilder.NAME, Body::new);
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
        // the thresholds as every endpoint reads them: a number or a string holding one, a fraction refused where a whole
        // number is meant, the range named
        PARSER.declareField((b, v) -> b.maxDistance = v, (p, c) -> Thresholds.maxDistance(p, SimHash.BITS), MAX_DISTANCE,
            ObjectParser.ValueType.INT);
        PARSER.declareField((b, v) -> b.minSimilarity = v, (p, c) -> Thresholds.minSimilarity(p), MIN_SIMILARITY,
            ObjectParser.ValueType.DOUBLE);
        PARSER.declareField((b, v) -> b.sketch = v, (p, c) -> parseSketch(p.text()), SKETCH, ObjectParser.ValueType.STRING);
        PARSER.declareField((b, v) -> b.k = v, (p, c) -> Thresholds.k(p, SimHashQueryBuilder.MAX_K), K, ObjectParser.ValueType.INT);
        PARSER.declareBoolean((b, v) -> b.include = v, INCLUDE);
        PARSER.declareObject((b, v) -> b.filter = v, (p, c) -> SimHashQueryBuilder.parseFilter(p), FILTER);
        for (String option : FingerprintSpec.OPTIONS) {
            // the fingerprint options as the processor takes them: strings or numbers, checked by FingerprintSpec
            PARSER.declareField((b, v) -> b.options.put(option, v),
                (p, c) -> p.currentToken() == XContentParser.Token.VALUE_NUMBER ? p.numberValue() : p.text(), new ParseField(option),
                ObjectParser.ValueType.VALUE);
        }
        PARSER.declareFloat((b, v) -> b.boost = v, AbstractQueryBuilder.BOOST_FIELD);
        PARSER.declareString((b, v) -> b.queryName = v, AbstractQueryBuilder.NAME_FIELD);
        PARSER.declareObject((b, v) -> b.exclude = v, (p, c) -> Declarations.parse(EXCLUDE_PARSER, p, null), EXCLUDE);
        for (ObjectParser<LikeBody, Void> document : List.of(LIKE_PARSER, EXCLUDE_PARSER)) {
            // ids and index names as the document APIs take them: strings, or numbers read as their text
            document.declareField((l, v) -> l.index = v, (p, c) -> p.text(), new ParseField("index"), ObjectParser.ValueType.VALUE);
            document.declareField((l, v) -> l.id = v, (p, c) -> p.text(), new ParseField("id"), ObjectParser.ValueType.VALUE);
        }
        LIKE_PARSER.declareField((l, v) -> l.routing = v, (p, c) -> p.text(), new ParseField("routing"), ObjectParser.ValueType.VALUE);
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

    /** Writes the query's fields (inside its object, before boost and name): what {@link #parse} reads back. */
    static void write(SimHashQueryBuilder q, XContentBuilder builder) throws IOException {
        builder.field(FIELD.getPreferredName(), q.field());
        if (q.hash() != null) {
            builder.field(HASH.getPreferredName(), SimHash.toHex(q.hash()));
        }
        if (q.text() != null) {
            builder.field(TEXT.getPreferredName(), q.text());
            for (String option : FingerprintSpec.OPTIONS) {
                if (q.textOptions().containsKey(option)) {
                    builder.field(option, q.textOptions().get(option));
                }
            }
        }
        if (q.like() != null) {
            builder.startObject(LIKE.getPreferredName());
            if (q.like().index() != null) {
                builder.field("index", q.like().index());
            }
            builder.field("id", q.like().id());
            if (q.like().routing() != null) {
                builder.field("routing", q.like().routing());
            }
            builder.endObject();
            if (q.include()) {
                builder.field(INCLUDE.getPreferredName(), true);
            }
        }
        if (q.excludeId() != null) {
            builder.startObject(EXCLUDE.getPreferredName()).field("index", q.excludeIndex()).field("id", q.excludeId()).endObject();
        }
        if (q.sketch() != null) {
            builder.field(SKETCH.getPreferredName(), Base64.getEncoder().encodeToString(q.sketch()));
        }
        if (q.maxDistance() != null) {
            builder.field(MAX_DISTANCE.getPreferredName(), q.maxDistance());
        }
        if (q.minSimilarity() != null) {
            builder.field(MIN_SIMILARITY.getPreferredName(), q.minSimilarity());
        }
        if (q.k() != null) {
            builder.field(K.getPreferredName(), q.k());
        }
        if (q.filter() != null) {
            builder.field(FILTER.getPreferredName(), q.filter());
        }
    }

}
