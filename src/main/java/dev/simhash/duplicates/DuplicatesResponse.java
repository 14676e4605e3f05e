package dev.simhash.duplicates;

import dev.simhash.core.DuplicateGroups;
import dev.simhash.threshold.Verification;
import dev.simhash.wire.WireEnvelope;

import org.elasticsearch.action.ActionResponse;
import org.elasticsearch.common.io.stream.StreamInput;
import org.elasticsearch.common.io.stream.StreamOutput;
import org.elasticsearch.xcontent.ToXContentObject;
import org.elasticsearch.xcontent.XContentBuilder;

import java.io.IOException;
import java.util.List;
import java.util.Objects;

/** The near-duplicate report: totals, one page of groups, and how many group ids were written. */
public final class DuplicatesResponse extends ActionResponse implements ToXContentObject {

    /** Milliseconds spent reading fingerprints, grouping them, fetching the listed members' ids, and writing group ids. */
    public record Phases(long readMillis, long groupMillis, long membersMillis, long writeMillis) {}

    private final String field;
    private final int maxDistance;
    // the threshold pairs were verified with, or null: the radius alone linked them
    private final Double minSimilarity;
    private final long tookMillis;
    private final Phases phases;
    private final DuplicateGroups.Page page;
    private final String groupIdField;
    private final long updated;
    // the most heap the report charged to the request circuit breaker at once
    private final long peakMemoryBytes;

    public DuplicatesResponse(String field, int maxDistance, long tookMillis, Phases phases, DuplicateGroups.Page page,
                              String groupIdField, long updated, long peakMemoryBytes) {
        this(field, maxDistance, null, tookMillis, phases, page, groupIdField, updated, peakMemoryBytes);
    }

    /** @param minSimilarity the threshold candidate pairs were verified with ({@code maxDistance} is then its candidate radius), or null */
    public DuplicatesResponse(String field, int maxDistance, Double minSimilarity, long tookMillis, Phases phases, DuplicateGroups.Page page,
                              String groupIdField, long updated, long peakMemoryBytes) {
        this.field = field;
        this.maxDistance = maxDistance;
        this.minSimilarity = minSimilarity;
        this.tookMillis = tookMillis;
        this.phases = phases;
        this.page = page;
        this.groupIdField = groupIdField;
        this.updated = updated;
        this.peakMemoryBytes = peakMemoryBytes;
    }

    public DuplicatesResponse(StreamInput in) throws IOException {
        StreamInput body = WireEnvelope.read(in).in();
        field = body.readString();
        maxDistance = body.readVInt();
        minSimilarity = body.readOptionalDouble();
        tookMillis = body.readVLong();
        phases = new Phases(body.readVLong(), body.readVLong(), body.readVLong(), body.readVLong());
        int totalDocs = body.readVInt();
        int groupsTotal = body.readVInt();
        long duplicatesTotal = body.readVLong();
        List<DuplicateGroups.Group> groups = body.readCollectionAsList(DuplicatesResponse::readGroup);
        page = new DuplicateGroups.Page(totalDocs, groupsTotal, duplicatesTotal, groups);
        groupIdField = body.readOptionalString();
        updated = body.readVLong();
        peakMemoryBytes = body.readVLong();
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        WireEnvelope.write(out, body -> {
            body.writeString(field);
            body.writeVInt(maxDistance);
            body.writeOptionalDouble(minSimilarity);
            body.writeVLong(tookMillis);
            body.writeVLong(phases.readMillis());
            body.writeVLong(phases.groupMillis());
            body.writeVLong(phases.membersMillis());
            body.writeVLong(phases.writeMillis());
            body.writeVInt(page.totalDocs());
            body.writeVInt(page.groupsTotal());
            body.writeVLong(page.duplicatesTotal());
            body.writeCollection(page.groups(), DuplicatesResponse::writeGroup);
            body.writeOptionalString(groupIdField);
            body.writeVLong(updated);
            body.writeVLong(peakMemoryBytes);
        });
    }

    // each group has an envelope of its own, so a later release can append fields to it (and to its members)
    private static DuplicateGroups.Group readGroup(StreamInput in) throws IOException {
        StreamInput g = WireEnvelope.read(in).in();
        return new DuplicateGroups.Group(g.readString(), g.readVInt(), g.readCollectionAsList(DuplicatesResponse::readMember),
            g.readBoolean() ? readMember(g) : null);
    }

    private static void writeGroup(StreamOutput out, DuplicateGroups.Group group) throws IOException {
        WireEnvelope.write(out, o -> {
            o.writeString(group.groupId());
            o.writeVInt(group.size());
            o.writeCollection(group.members(), DuplicatesResponse::writeMember);
            o.writeBoolean(group.representative() != null);
            if (group.representative() != null) {
                writeMember(o, group.representative());
            }
        });
    }

    private static DuplicateGroups.Member readMember(StreamInput in) throws IOException {
        return new DuplicateGroups.Member(in.readString(), in.readString(), in.readOptionalDouble());
    }

    private static void writeMember(StreamOutput out, DuplicateGroups.Member m) throws IOException {
        out.writeString(m.index());
        out.writeString(m.id());
        out.writeOptionalDouble(m.similarity());
    }

    public String field() {
        return field;
    }

    public int maxDistance() {
        return maxDistance;
    }

    /** The threshold pairs were verified with, or null. */
    public Double minSimilarity() {
        return minSimilarity;
    }

    public long tookMillis() {
        return tookMillis;
    }

    public Phases phases() {
        return phases;
    }

    /** The field group ids were written to, or null. */
    public String groupIdField() {
        return groupIdField;
    }

    public long peakMemoryBytes() {
        return peakMemoryBytes;
    }

    public DuplicateGroups.Page page() {
        return page;
    }

    public long updated() {
        return updated;
    }

    @Override
    public XContentBuilder toXContent(XContentBuilder builder, Params params) throws IOException {
        builder.startObject();
        builder.field("took_ms", tookMillis);
        builder.startObject("phases_ms");
        builder.field("read", phases.readMillis());
        builder.field("group", phases.groupMillis());
        builder.field("members", phases.membersMillis());
        builder.field("write", phases.writeMillis());
        builder.endObject();
        builder.field("field", field);
        // a report by min_similarity shows its threshold and which rule found its candidates, the sketch's bands or a radius
        // derived from the threshold: that radius is no max_distance a caller could send (a radius alone groups differently)
        if (minSimilarity != null) {
            builder.field("min_similarity", minSimilarity);
            builder.field("candidates", Verification.candidateRule(minSimilarity));
        } else {
            builder.field("max_distance", maxDistance);
        }
        builder.field("total_docs", page.totalDocs());
        builder.field("groups_total", page.groupsTotal());
        builder.field("duplicates_total", page.duplicatesTotal());
        builder.field("peak_memory_bytes", peakMemoryBytes);
        if (groupIdField != null) {
            builder.startObject("write_group_id");
            builder.field("field", groupIdField);
            builder.field("updated", updated);
            builder.endObject();
        }
        builder.startArray("groups");
        for (DuplicateGroups.Group g : page.groups()) {
            builder.startObject();
            builder.field("group_id", g.groupId());
            builder.field("size", g.size());
            if (g.representative() != null) {
                builder.startObject("representative").field("_index", g.representative().index()).field("_id", g.representative().id())
                    .endObject();
            }
            builder.startArray("members");
            for (DuplicateGroups.Member m : g.members()) {
                builder.startObject().field("_index", m.index()).field("_id", m.id());
                if (m.similarity() != null) {
                    builder.field("similarity", m.similarity());
                }
                builder.endObject();
            }
            builder.endArray();
            builder.endObject();
        }
        builder.endArray();
        builder.endObject();
        return builder;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (o instanceof DuplicatesResponse that) {
            return field.equals(that.field) && maxDistance == that.maxDistance && Objects.equals(minSimilarity, that.minSimilarity)
                && tookMillis == that.tookMillis && phases.equals(that.phases) && page.equals(that.page)
                && Objects.equals(groupIdField, that.groupIdField) && updated == that.updated && peakMemoryBytes == that.peakMemoryBytes;
        }
        return false;
    }

    @Override
    public int hashCode() {
        return Objects.hash(field, maxDistance, minSimilarity, tookMillis, phases, page, groupIdField, updated, peakMemoryBytes);
    }
}
