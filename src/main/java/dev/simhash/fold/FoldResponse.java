package dev.simhash.fold;

import dev.simhash.compat.lucene.CompatHits;
import dev.simhash.core.SimHash;
import dev.simhash.threshold.Verification;
import dev.simhash.wire.WireEnvelope;

import org.apache.lucene.search.TotalHits;
import org.elasticsearch.action.ActionResponse;
import org.elasticsearch.action.search.SearchResponse;
import org.elasticsearch.common.bytes.BytesReference;
import org.elasticsearch.common.io.stream.StreamInput;
import org.elasticsearch.common.io.stream.StreamOutput;
import org.elasticsearch.core.AbstractRefCounted;
import org.elasticsearch.core.RefCounted;
import org.elasticsearch.rest.action.RestActions;
import org.elasticsearch.search.SearchHit;
import org.elasticsearch.search.SearchHits;
import org.elasticsearch.xcontent.ToXContentObject;
import org.elasticsearch.xcontent.XContentBuilder;
import org.elasticsearch.xcontent.XContentParser;
import org.elasticsearch.xcontent.XContentParserConfiguration;

import java.io.IOException;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A page of folded search results: the inner search's response (its hits in rank order) and, for each representative
 * on the page, its fingerprint, how many hits it absorbed and the members listed under it. Rendered like a search
 * response with {@code _simhash} in every hit and a {@code simhash_fold} summary. Holds a reference to the search
 * response until it is released.
 */
public final class FoldResponse extends ActionResponse implements ToXContentObject {

    /**
     * A hit folded under a representative: its position among the search hits, its distance to the representative and,
     * with {@code min_similarity}, the estimated similarity of the two (null without).
     */
    record Member(int hit, int distance, Double similarity) {}

    /**
     * A representative on the page: its position among the search hits, its fingerprint (null: none), how many hits it
     * absorbed, and the members listed (null when none were asked for, so the key is left out).
     */
    record Representative(int hit, Long hash, int folded, List<Member> members) {}

    private final SearchResponse search;
    private final FoldParams fold;
    private final long tookMillis;
    private final int groups;
    private final List<Representative> page;
    /**
     * Whether the hits are rendered without {@code _id} and the stored metadata fields: the body turned stored fields off
     * ({@code _none_}), and the fold read them anyway to find the hits' sketches.
     */
    private final boolean hideIds;
    private final RefCounted refs;

    /** Takes a reference to {@code search}, released with this response. */
    FoldResponse(SearchResponse search, FoldParams fold, long tookMillis, int groups, List<Representative> page) {
        this(search, fold, tookMillis, groups, page, false);
    }

    /** As above; {@code hideIds}: render the hits as the body's {@code stored_fields: _none_} asked, without {@code _id}. */
    FoldResponse(SearchResponse search, FoldParams fold, long tookMillis, int groups, List<Representative> page, boolean hideIds) {
        search.mustIncRef();
        this.search = search;
        this.fold = fold;
        this.tookMillis = tookMillis;
        this.groups = groups;
        this.page = List.copyOf(page);
        this.hideIds = hideIds;
        this.refs = AbstractRefCounted.of(search::decRef);
    }

    public FoldResponse(StreamInput in) throws IOException {
        StreamInput body = WireEnvelope.read(in).in();
        search = new SearchResponse(body);
        fold = FoldParams.readFrom(body);
        tookMillis = body.readVLong();
        groups = body.readVInt();
        page = body.readCollectionAsList(FoldResponse::readRepresentative);
        hideIds = body.readBoolean();
        refs = AbstractRefCounted.of(search::decRef);
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        WireEnvelope.write(out, body -> {
            search.writeTo(body);
            fold.writeTo(body);
            body.writeVLong(tookMillis);
            body.writeVInt(groups);
            body.writeCollection(page, FoldResponse::writeRepresentative);
            body.writeBoolean(hideIds);
        });
    }

    // each representative has an envelope of its own, so a later release can append fields to it (and to its members)
    private static Representative readRepresentative(StreamInput in) throws IOException {
        StreamInput r = WireEnvelope.read(in).in();
        return new Representative(r.readVInt(), r.readOptionalLong(), r.readVInt(),
            r.readBoolean() ? r.readCollectionAsList(m -> new Member(m.readVInt(), m.readVInt(), m.readOptionalDouble())) : null);
    }

    private static void writeRepresentative(StreamOutput out, Representative r) throws IOException {
        WireEnvelope.write(out, o -> {
            o.writeVInt(r.hit());
            o.writeOptionalLong(r.hash());
            o.writeVInt(r.folded());
            o.writeBoolean(r.members() != null);
            if (r.members() != null) {
                o.writeCollection(r.members(), (mo, m) -> {
                    mo.writeVInt(m.hit());
                    mo.writeVInt(m.distance());
                    mo.writeOptionalDouble(m.similarity());
                });
            }
        });
    }

    /** The inner search's response (the reference stays this response's). */
    SearchResponse search() {
        return search;
    }

    FoldParams fold() {
        return fold;
    }

    long tookMillis() {
        return tookMillis;
    }

    List<Representative> page() {
        return page;
    }

    /** The number of representatives the window gave (all pages). */
    public int groups() {
        return groups;
    }

    /** The number of hits folded: the inner search's hits. */
    public int considered() {
        return search.getHits().getHits().length;
    }

    @Override
    public void incRef() {
        refs.incRef();
    }

    @Override
    public boolean tryIncRef() {
        return refs.tryIncRef();
    }

    @Override
    public boolean decRef() {
        return refs.decRef();
    }

    @Override
    public boolean hasReferences() {
        return refs.hasReferences();
    }

    @Override
    public XContentBuilder toXContent(XContentBuilder b, Params params) throws IOException {
        SearchHits searchHits = search.getHits();
        SearchHit[] hits = searchHits.getHits();
        b.startObject();
        b.field("took", tookMillis);
        b.field("timed_out", search.isTimedOut());
        if (search.isTerminatedEarly() != null) {
            b.field("terminated_early", search.isTerminatedEarly());
        }
        if (search.pointInTimeId() != null) {
            b.field("pit_id", Base64.getUrlEncoder().encodeToString(BytesReference.toBytes(search.pointInTimeId())));
        }
        RestActions.buildBroadcastShardsHeader(b, params, search.getTotalShards(), search.getSuccessfulShards(),
            search.getSkippedShards(), search.getFailedShards(), search.getShardFailures());
        b.startObject("hits");
        TotalHits total = searchHits.getTotalHits();
        if (total != null) {
            b.startObject("total");
            b.field("value", CompatHits.value(total));
            b.field("relation", CompatHits.exact(total) ? "eq" : "gte");
            b.endObject();
        }
        score(b, "max_score", searchHits.getMaxScore());
        b.startArray("hits");
        for (Representative rep : page) {
            b.startObject();
            if (hideIds) {
                withoutIds(b, hits[rep.hit()], params);
            } else {
                hits[rep.hit()].toInnerXContent(b, params);
            }
            b.startObject("_simhash");
            if (rep.hash() != null) {
                b.field("hash", SimHash.toHex(rep.hash()));
            }
            b.field("folded", rep.folded());
            if (rep.members() != null) {
                b.startArray("members");
                for (Member m : rep.members()) {
                    SearchHit hit = hits[m.hit()];
                    b.startObject();
                    b.field("_index", hit.getIndex());
                    b.field("_id", hit.getId());
                    score(b, "_score", hit.getScore());
                    b.field("distance", m.distance());
                    if (m.similarity() != null) {
                        b.field("similarity", m.similarity());
                    }
                    b.endObject();
                }
                b.endArray();
            }
            b.endObject();
            b.endObject();
        }
        b.endArray();
        b.endObject();
        b.startObject("simhash_fold");
        b.field("field", fold.field());
        // a fold by min_similarity shows its threshold and which rule found its candidates (the sketch's bands or a radius
        // derived from the threshold): that radius is no max_distance a caller could send (it would fold by the radius alone)
        if (fold.minSimilarity() != null) {
            b.field("min_similarity", fold.minSimilarity());
            b.field("candidates", Verification.candidateRule(fold.minSimilarity()));
        } else {
            b.field("max_distance", fold.maxDistance());
        }
        b.field("window", fold.window());
        b.field("considered", hits.length);
        b.field("groups", groups);
        b.endObject();
        b.endObject();
        return b;
    }

    /**
     * Writes the hit's fields as {@code _search} renders them with {@code stored_fields: _none_}: without {@code _id} and
     * the stored metadata fields (such as {@code _routing}), which the fold read only to find the hit's sketch.
     */
    private static void withoutIds(XContentBuilder b, SearchHit hit, Params params) throws IOException {
        Set<String> hidden = new HashSet<>(hit.getMetadataFields().keySet());
        hidden.add("_id");
        BytesReference rendered;
        try (XContentBuilder one = XContentBuilder.builder(b.contentType().xContent())) {
            one.startObject();
            hit.toInnerXContent(one, params);
            one.endObject();
            rendered = BytesReference.bytes(one);
        }
        try (XContentParser parser = b.contentType().xContent().createParser(XContentParserConfiguration.EMPTY, rendered.streamInput())) {
            parser.nextToken();
            for (XContentParser.Token t = parser.nextToken(); t == XContentParser.Token.FIELD_NAME; t = parser.nextToken()) {
                String name = parser.currentName();
                parser.nextToken();
                if (hidden.contains(name)) {
                    parser.skipChildren();
                } else {
                    b.field(name);
                    b.copyCurrentStructure(parser);
                }
            }
        }
    }

    private static void score(XContentBuilder b, String name, float score) throws IOException {
        if (Float.isNaN(score)) {
            b.nullField(name);
        } else {
            b.field(name, score);
        }
    }

    /**
     * Equal when the fold's own fields and what the search response carries over the wire and shows (its hits, shards,
     * time and flags) are: {@link SearchResponse} itself has no equality.
     */
    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (o instanceof FoldResponse that) {
            return fold.equals(that.fold) && hideIds == that.hideIds && tookMillis == that.tookMillis && groups == that.groups && page.equals(that.page)
                && search.getHits().equals(that.search.getHits()) && search.getTook().equals(that.search.getTook())
                && search.getTotalShards() == that.search.getTotalShards()
                && search.getSuccessfulShards() == that.search.getSuccessfulShards()
                && search.getSkippedShards() == that.search.getSkippedShards() && search.isTimedOut() == that.search.isTimedOut()
                && Objects.equals(search.isTerminatedEarly(), that.search.isTerminatedEarly());
        }
        return false;
    }

    @Override
    public int hashCode() {
        return Objects.hash(fold, tookMillis, groups, page, search.getHits(), search.getTook(), search.getTotalShards(),
            search.getSuccessfulShards(), search.getSkippedShards(), search.isTimedOut(), search.isTerminatedEarly());
    }
}
