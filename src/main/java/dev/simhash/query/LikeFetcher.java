package dev.simhash.query;

import dev.simhash.core.FingerprintFields;
import dev.simhash.core.MinHashSketch;
import dev.simhash.mapper.SimHashFieldMapper;
import dev.simhash.mapper.SimHashFieldType;
import dev.simhash.request.FingerprintMappings;
import dev.simhash.threshold.Thresholds;

import org.elasticsearch.ExceptionsHelper;
import org.elasticsearch.ResourceNotFoundException;
import org.elasticsearch.action.ActionListener;
import org.elasticsearch.action.fieldcaps.FieldCapabilities;
import org.elasticsearch.action.fieldcaps.FieldCapabilitiesRequest;
import org.elasticsearch.action.fieldcaps.TransportFieldCapabilitiesAction;
import org.elasticsearch.action.get.GetRequest;
import org.elasticsearch.action.search.SearchRequest;
import org.elasticsearch.action.support.IndicesOptions;
import org.elasticsearch.client.internal.Client;
import org.elasticsearch.cluster.metadata.Metadata;
import org.elasticsearch.common.regex.Regex;
import org.elasticsearch.common.document.DocumentField;
import org.elasticsearch.common.xcontent.support.XContentMapValues;
import org.elasticsearch.index.query.IdsQueryBuilder;
import org.elasticsearch.rest.RestStatus;
import org.elasticsearch.search.SearchHit;
import org.elasticsearch.search.builder.SearchSourceBuilder;
import org.elasticsearch.search.fetch.subphase.FetchSourceContext;
import org.elasticsearch.search.fetch.subphase.FieldAndFormat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Reads the fingerprint of the document a {@code simhash} query's {@code like} names, from a {@code simhash} field or
 * the processor's object, with the caller's own privileges. With {@code like.index} naming one index, one request to the
 * shard of the document reads the fingerprint and the sketch ({@link LikedValuesAction}); whatever it does not read, the
 * steps below read. With {@code like.index}, a realtime GET comes first: it is
 * authorized as the caller's GET of that document would be, and a document it does not find is a 404. Then, when the
 * query may verify with the similarity sketch, one search for the id in {@code like.index} (alias filters and
 * document-level security apply) reads the fingerprint and the sketch of a {@code simhash} field together (the
 * {@code fields} format {@value SimHashFieldType#FINGERPRINT_AND_SKETCH_FORMAT}); when it finds no such value (the
 * processor's object, a document in several indices, no sketch where one is required), the steps below run and answer.
 * Step by step: the fingerprint from the GET's {@code _source} when the processor wrote it there as a number; otherwise
 * (source disabled or filtered, a hash sent as a string) from doc values, the way the query reads every other document's
 * fingerprint. Without an index: from doc values, through a search for the id in every index the caller may read. When
 * the query verifies with the similarity sketch, the liked document's sketch is then read through the {@code fields}
 * option with the format {@value MinHashSketch#ALGORITHM}, after field capabilities told that the field stores sketches
 * there. A document the caller may not see answers exactly as a missing one.
 */
final class LikeFetcher {

    /**
     * The liked document once fetched: its fingerprint, the concrete index it was found in, and its similarity sketch
     * (null when none was asked for, or when the field stores none and none was required).
     */
    record Liked(long hash, String index, byte[] sketch) {
        Liked(long hash, String index) {
            this(hash, index, null);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Liked l && hash == l.hash && index.equals(l.index) && Arrays.equals(sketch, l.sketch);
        }

        @Override
        public int hashCode() {
            return Objects.hash(hash, index, Arrays.hashCode(sketch));
        }

        @Override
        public String toString() {
            return "Liked[" + index + ", " + hash + (sketch == null ? "" : ", with sketch") + "]";
        }
    }

    /** Whether the liked document's sketch is read as well. */
    enum SketchNeed {
        /** Only the fingerprint. */
        NONE,
        /** The sketch too; a field without sketches is a 400 ({@code min_similarity} given). */
        REQUIRED,
        /** The sketch too where the field stores sketches (the default threshold applies there); else only the fingerprint. */
        IF_STORED
    }

    private final String field;
    private final Like like;
    private final SketchNeed sketchNeed;

    LikeFetcher(String field, Like like) {
        this(field, like, SketchNeed.NONE);
    }

    LikeFetcher(String field, Like like, SketchNeed sketchNeed) {
        this.field = field;
        this.like = like;
        this.sketchNeed = sketchNeed;
    }

    void fetch(Client client, ActionListener<Liked> l) {
        // the steps below answer from inside listeners that turn a throw into onFailure: complete exactly once regardless
        ActionListener<Liked> once = ActionListener.notifyOnce(l);
        String[] named = like.index() == null ? new String[0] : new String[] { like.index() };
        // a 400 from reading a field that holds no fingerprints says what is wrong with [field] instead, when it can
        ActionListener<Liked> listener = ActionListener.wrap(once::onResponse, e -> {
            if (ExceptionsHelper.status(e) == RestStatus.BAD_REQUEST) {
                failWithField(client, named, e, once);
            } else {
                once.onFailure(e);
            }
        });
        if (like.index() == null || isExpression(like.index())) {
            // a search for the id in the indices the caller may read (security expands the expression), then a GET of the
            // concrete index it was found in, as the caller, before the document is used
            ActionListener<Liked> confirmed = confirm(client, listener);
            if (sketchNeed == SketchNeed.NONE) {
                fromDocValues(client, named, confirmed);
            } else {
                fetchTogether(client, named, null, confirmed);
            }
            return;
        }
        // One request to the shard of the document first: authorized as a read of like.index, it checks the document as a
        // realtime GET does and reads its values as a search does. Whatever it does not read (an alias, a document hidden,
        // missing or not refreshed, the processor's object, no sketch where one is required, a refusal) the steps read,
        // and they answer in their own words.
        client.execute(LikedValuesAction.INSTANCE, new LikedValuesRequest(like.index(), like.id(), like.routing(), field),
            ActionListener.wrap(read -> {
                if (read.read() && (read.sketch() != null || sketchNeed != SketchNeed.REQUIRED)) {
                    listener.onResponse(new Liked(read.hash(), read.index(), sketchNeed == SketchNeed.NONE ? null : read.sketch()));
                } else {
                    fetchStepwise(client, named, listener);
                }
            }, e -> fetchStepwise(client, named, listener)));
    }

    /** {@link #fetch} with an {@code index} naming one index or alias, step by step. */
    private void fetchStepwise(Client client, String[] named, ActionListener<Liked> listener) {
        // A realtime GET as the caller, always first: it is authorized exactly as the caller's own GET of the document
        // would be (a search sent from inside the outer search may be authorized by the outer search's indices), and it
        // tells a deleted document from one that is only not refreshed yet. With the processor's object form, its
        // _source may hold the fingerprint as a number.
        String hashPath = FingerprintFields.hashPath(field);
        client.get(get(like.index(), FetchSourceContext.of(true, new String[] { hashPath }, null)), ActionListener.wrap(response -> {
            if (!response.isExists()) {
                throw notFound();
            }
            Long fromSource = numericHash(response.isSourceEmpty() ? null : response.getSourceAsMap(), hashPath);
            if (sketchNeed != SketchNeed.NONE) {
                fetchTogether(client, named, fromSource == null ? null : new Liked(fromSource, response.getIndex()), listener);
            } else if (fromSource != null) {
                listener.onResponse(new Liked(fromSource, response.getIndex()));
            } else {
                fromDocValues(client, named, listener);
            }
        }, listener::onFailure));
    }

    /** A realtime GET of the liked document in {@code index}, sent as the caller. */
    private GetRequest get(String index, FetchSourceContext source) {
        return new GetRequest(index, like.id()).routing(like.routing()).preference("_local").fetchSourceContext(source);
    }

    /** Whether {@code like.index} names several indices: a pattern, a list or {@code _all} (a GET takes one index or alias). */
    static boolean isExpression(String index) {
        return Regex.isSimpleMatchPattern(index) || index.indexOf(',') >= 0 || Metadata.ALL.equals(index);
    }

    /**
     * Passes on a document found by a search of several indices only once a realtime GET of it in the concrete index it
     * was found in, as the caller, finds it too: a document of an index the caller may not GET (or deleted since the last
     * refresh) answers as a missing one.
     */
    private ActionListener<Liked> confirm(Client client, ActionListener<Liked> listener) {
        return listener.delegateFailureAndWrap((l, liked) -> {
            client.get(get(liked.index(), FetchSourceContext.DO_NOT_FETCH_SOURCE), ActionListener.wrap(response -> {
                if (!response.isExists()) {
                    throw notFound();
                }
                l.onResponse(liked);
            }, e -> l.onFailure(ExceptionsHelper.status(e) == RestStatus.FORBIDDEN ? notFound() : e)));
        });
    }

    /**
     * The one answer for a liked document that does not exist and one the caller may not see in {@code like.index} (an alias
     * filter, document-level security): the same status and words, so that the answer reveals nothing.
     */
    private ResourceNotFoundException notFound() {
        return new ResourceNotFoundException("[like] document " + like.describe() + " not found" + (like.index() == null
            ? " in any index" : "") + " (a document indexed since the last refresh is found once the index is refreshed)");
    }

    /**
     * Fails with what is wrong with {@code field} in {@code indices} when field capabilities show that it is not a field of
     * fingerprints there (a [text] field, say), else with {@code e}: reading the liked document's fingerprint from such a
     * field fails with Elasticsearch's own words about formats, which do not say what to change.
     */
    private void failWithField(Client client, String[] indices, Exception e, ActionListener<Liked> listener) {
        List<String> parents = new ArrayList<>();
        for (int dot = field.indexOf('.'); dot > 0; dot = field.indexOf('.', dot + 1)) {
            parents.add(field.substring(0, dot));
        }
        client.execute(TransportFieldCapabilitiesAction.TYPE, FingerprintMappings.request(indices, IndicesOptions.lenientExpandOpen(),
            field, parents.toArray(String[]::new)), ActionListener.wrap(caps -> {
                try {
                    FingerprintMappings.checkFingerprint(caps, field);
                } catch (IllegalArgumentException wrongField) {
                    listener.onFailure(wrongField);
                    return;
                }
                for (String parent : parents) {
                    Map<String, FieldCapabilities> types = caps.getField(parent);
                    if (types != null && types.containsKey("nested")) {
                        // a nested document's fingerprint is not its parent's: the liked document has none at the top level
                        listener.onFailure(new IllegalArgumentException("[field] [" + field + "] is inside the [nested] field ["
                            + parent + "]: [like] reads the fingerprint of the document itself, and a nested object's is not "
                            + "its document's; map the [simhash] field outside [" + parent + "] (e.g. with [copy_to])"));
                        return;
                    }
                }
                listener.onFailure(e);
            }, ignored -> listener.onFailure(e)));
    }

    /**
     * One search for the fingerprint and the sketch of a {@code simhash} field; any other outcome (including a failure) is
     * left to the steps of {@link #stepwise}, which tell the cases apart with their own messages.
     *
     * @param fromSource the fingerprint the GET read from {@code _source} (the processor's object form), or null
     */
    private void fetchTogether(Client client, String[] indices, Liked fromSource, ActionListener<Liked> listener) {
        SearchRequest search = new SearchRequest(indices).routing(like.routing()).source(new SearchSourceBuilder()
            .query(new IdsQueryBuilder().addIds(like.id())).size(2).fetchSource(false)
            .fetchField(new FieldAndFormat(field, SimHashFieldType.FINGERPRINT_AND_SKETCH_FORMAT)));
        client.search(search, ActionListener.wrap(response -> {
            SearchHit[] hits = response.getHits().getHits();
            DocumentField values = hits.length == 1 ? hits[0].field(field) : null;
            List<Object> both = values == null ? List.of() : values.getValues();
            byte[] sketch = both.size() == 2 && both.get(1) instanceof String b ? Base64.getDecoder().decode(b) : null;
            if (both.isEmpty() || !(both.get(0) instanceof Number hash) || (sketch == null && sketchNeed == SketchNeed.REQUIRED)) {
                stepwise(client, indices, fromSource, listener);
                return;
            }
            listener.onResponse(new Liked(hash.longValue(), hits[0].getIndex(), sketch));
        }, e -> stepwise(client, indices, fromSource, listener)));
    }

    private void stepwise(Client client, String[] indices, Liked fromSource, ActionListener<Liked> listener) {
        ActionListener<Liked> then = ActionListener.wrap(liked -> withSketch(client, liked, listener), listener::onFailure);
        if (fromSource != null) {
            then.onResponse(fromSource);
        } else {
            fromDocValues(client, indices, then);
        }
    }

    /** Reads the sketch of the liked document (found in {@code liked.index()}) when the field stores sketches there. */
    private void withSketch(Client client, Liked liked, ActionListener<Liked> listener) {
        FieldCapabilitiesRequest caps = new FieldCapabilitiesRequest().indices(readFrom(liked)).fields(field);
        client.execute(TransportFieldCapabilitiesAction.TYPE, caps, ActionListener.wrap(response -> {
            Map<String, FieldCapabilities> types = response.getField(field);
            FieldCapabilities simhash = types == null ? null : types.get(SimHashFieldMapper.CONTENT_TYPE);
            Set<String> sketches = simhash == null || simhash.meta() == null ? Set.of()
                : simhash.meta().getOrDefault(SimHashFieldType.SKETCH_META, Set.of());
            if (!sketches.contains(MinHashSketch.ALGORITHM)) {
                if (sketchNeed == SketchNeed.REQUIRED) {
                    throw Thresholds.noSketches(field, "in index [" + liked.index() + "], where the [like] document "
                        + like.describe() + " is", "its mapping there has none");
                }
                listener.onResponse(liked);
                return;
            }
            readSketch(client, liked, listener);
        }, listener::onFailure));
    }

    /** Where the liked document is read again: the caller's own {@code like.index} (an alias keeps its filter), else where it was found. */
    private String readFrom(Liked liked) {
        return like.index() != null ? like.index() : liked.index();
    }

    private void readSketch(Client client, Liked liked, ActionListener<Liked> listener) {
        SearchRequest search = new SearchRequest(readFrom(liked)).routing(like.routing()).source(new SearchSourceBuilder()
            .query(new IdsQueryBuilder().addIds(like.id())).size(1).fetchSource(false)
            .fetchField(new FieldAndFormat(field, MinHashSketch.ALGORITHM)));
        client.search(search, listener.map(response -> {
            SearchHit[] hits = response.getHits().getHits();
            DocumentField values = hits.length == 0 ? null : hits[0].field(field);
            Object value = values == null || values.getValues().isEmpty() ? null : values.getValues().get(0);
            if (value == null) {
                if (sketchNeed == SketchNeed.REQUIRED) {
                    throw new IllegalArgumentException("[like] document " + like.describe() + " has no similarity sketch in [" + field
                        + "]");
                }
                return liked;
            }
            return new Liked(liked.hash(), liked.index(), Base64.getDecoder().decode(value.toString()));
        }));
    }

    private void fromDocValues(Client client, String[] indices, ActionListener<Liked> listener) {
        String hashPath = FingerprintFields.hashPath(field);
        // a simhash field holds the fingerprint in its own doc values, the object form in [hash]; the name that is not a
        // field of the index is ignored by docvalue_fields
        SearchRequest search = new SearchRequest(indices).routing(like.routing()).source(new SearchSourceBuilder()
            .query(new IdsQueryBuilder().addIds(like.id())).size(2).fetchSource(false).docValueField(hashPath)
            .docValueField(field, "long"));
        client.search(search, listener.map(response -> {
            if (response.getShardFailures().length > 0) {
                // a shard that could not read the field (not a field of fingerprints there): no hit would mean nothing
                throw ExceptionsHelper.convertToRuntime((Exception) ExceptionsHelper.unwrapCause(response.getShardFailures()[0].getCause()));
            }
            SearchHit[] hits = response.getHits().getHits();
            if (hits.length == 0) {
                // with an index, the realtime GET found it: not refreshed yet, or hidden from the caller by an alias filter
                // or document-level security; both answer as a missing document, so that the answer reveals nothing
                throw notFound();
            }
            if (hits.length > 1) {
                List<String> found = new ArrayList<>();
                for (SearchHit h : hits) {
                    found.add(h.getIndex());
                }
                throw new IllegalArgumentException("[like] document " + like.describe() + " exists in several indices " + found
                    + ": set [like.index]");
            }
            DocumentField values = hits[0].field(hashPath);
            if (values == null) {
                values = hits[0].field(field);
            }
            Object value = values == null || values.getValues().isEmpty() ? null : values.getValues().get(0);
            if (value instanceof Number n) {
                return new Liked(n.longValue(), hits[0].getIndex());
            }
            throw new IllegalArgumentException("[like] document " + like.describe() + " has no fingerprint in [" + field + "]");
        }));
    }

    /** The hash from the processor's object in _source when it is a JSON number; null otherwise (read doc values then). */
    static Long numericHash(Map<String, Object> source, String hashPath) {
        Object value = source == null ? null : XContentMapValues.extractValue(hashPath, source);
        if (value instanceof List<?> list && list.size() == 1) {
            value = list.get(0);
        }
        // a string would be coerced by the long field as a decimal: leave every string to the doc values, never guess
        return value instanceof Long || value instanceof Integer ? ((Number) value).longValue() : null;
    }
}
