package dev.simhash.weights;

import dev.simhash.wire.WireEnvelope;

import org.elasticsearch.action.ActionResponse;
import org.elasticsearch.common.io.stream.StreamInput;
import org.elasticsearch.common.io.stream.StreamOutput;
import org.elasticsearch.xcontent.ToXContentObject;
import org.elasticsearch.xcontent.XContentBuilder;

import java.io.IOException;
import java.util.Objects;

/**
 * The answer of {@link PutWeightsAction}: whether every node acknowledged the cluster state that holds the table (false:
 * stored, but some node had not applied it within the ack timeout), its name, version, size and source.
 */
public final class PutWeightsResponse extends ActionResponse implements ToXContentObject {
    private final WeightsTable table;
    private final boolean acknowledged;

    PutWeightsResponse(WeightsTable table, boolean acknowledged) {
        this.table = Objects.requireNonNull(table);
        this.acknowledged = acknowledged;
    }

    public PutWeightsResponse(StreamInput in) throws IOException {
        StreamInput body = WireEnvelope.read(in).in();
        this.table = WeightsMetadata.readTable(body);
        this.acknowledged = body.readBoolean();
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        WireEnvelope.write(out, body -> {
            WeightsMetadata.writeTable(body, table);
            body.writeBoolean(acknowledged);
        });
    }

    public boolean isAcknowledged() {
        return acknowledged;
    }

    WeightsTable table() {
        return table;
    }

    @Override
    public XContentBuilder toXContent(XContentBuilder b, Params params) throws IOException {
        b.startObject().field("acknowledged", acknowledged).field("name", table.name());
        WeightsMetadata.tableToXContent(b, table, 0);
        return b.endObject();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PutWeightsResponse r && table.equals(r.table) && acknowledged == r.acknowledged;
    }

    @Override
    public int hashCode() {
        return 31 * table.hashCode() + Boolean.hashCode(acknowledged);
    }
}
