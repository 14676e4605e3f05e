package dev.simhash.query;

import dev.simhash.core.FingerprintFields;
import dev.simhash.query.SimHashQueryBuilder.Like;

import org.elasticsearch.ResourceNotFoundException;
import org.elasticsearch.action.ActionListener;
import org.elasticsearch.action.get.GetRequest;
import org.elasticsearch.action.search.SearchRequest;
import org.elasticsearch.client.internal.Client;
import org.elasticsearch.common.document.DocumentField;
import org.elasticsearch.common.xcontent.support.XContentMapValues;
import org.elasticsearch.index.query.IdsQueryBuilder;
import org.elasticsearch.search.SearchHit;
import org.elasticsearch.search.builder.SearchSourceBuilder;
import org.elasticsearch.search.fetch.subphase.FetchSourceContext;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads the fingerprint of the document a {@code simhash} query's {@code like} names, from a {@code simhash} field or
 * the processor's object: with an index, a realtime GET, whose {@code _source} gives it when the processor wrote it there
 * as a number; otherwise (source disabled or filtered, a hash sent as a string) from doc values, the way the query reads
 * every other document's fingerprint. Without an index: from doc values, through a search for the id in every index.
 */
final class LikeFetcher {

    /** The liked document once fetched: its fingerprint and the concrete index it was found in. */
    record Liked(long hash, String index) {}

    private final String field;
    private final Like like;

    LikeFetcher(String field, Like like) {
        this.field = field;
        this.like = like;
    }

    void fetch(Client client, ActionListener<Liked> listener) {
        String hashPath = FingerprintFields.hashPath(field);
        if (like.index() == null) {
            fromDocValues(client, new String[0], listener);
            return;
        }
        GetRequest get = new GetRequest(like.index(), like.id()).routing(like.routing()).preference("_local")
            .fetchSourceContext(FetchSourceContext.of(true, new String[] { hashPath }, null));
        client.get(get, ActionListener.wrap(response -> {
            if (!response.isExists()) {
                throw new ResourceNotFoundException("[like] document " + like.describe() + " not found");
            }
            Long fromSource = numericHash(response.isSourceEmpty() ? null : response.getSourceAsMap(), hashPath);
            if (fromSource != null) {
                listener.onResponse(new Liked(fromSource, response.getIndex()));
            } else {
                fromDocValues(client, new String[] { like.index() }, listener);
            }
        }, listener::onFailure));
    }

    private void fromDocValues(Client client, String[] indices, ActionListener<Liked> listener) {
        String hashPath = FingerprintFields.hashPath(field);
        // a simhash field holds the fingerprint in its own doc values, the object form in [hash]; the name that is not a
        // field of the index is ignored by docvalue_fields
        SearchRequest search = new SearchRequest(indices).routing(like.routing()).source(new SearchSourceBuilder()
            .query(new IdsQueryBuilder().addIds(like.id())).size(2).fetchSource(false).docValueField(hashPath)
            .docValueField(field, "long"));
        client.search(search, listener.map(response -> {
            SearchHit[] hits = response.getHits().getHits();
            if (hits.length == 0) {
                if (indices.length > 0) {
                    // the realtime GET found it: it exists but is not searchable yet, and its _source has no fingerprint
                    throw new IllegalArgumentException("[like] document " + like.describe() + " is not searchable yet, so its "
                        + "fingerprint cannot be read from the doc values of [" + field + "] (refresh the index)");
                }
                throw new ResourceNotFoundException("[like] document " + like.describe() + " not found in any index");
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
