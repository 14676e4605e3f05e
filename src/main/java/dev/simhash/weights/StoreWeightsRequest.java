package dev.simhash.weights;

import dev.simhash.wire.WireEnvelope;

import org.elasticsearch.action.ActionRequestValidationException;
import org.elasticsearch.action.support.master.AcknowledgedRequest;
import org.elasticsearch.common.io.stream.StreamInput;
import org.elasticsearch.common.io.stream.StreamOutput;

import java.io.IOException;
import java.util.Objects;

/** The request of {@link StoreWeightsAction}: the table to add. */
public final class StoreWeightsRequest extends AcknowledgedRequest<StoreWeightsRequest> {
    private final WeightsTable table;

    public StoreWeightsRequest(WeightsTable table) {
        super(TRAPPY_IMPLICIT_DEFAULT_MASTER_NODE_TIMEOUT, DEFAULT_ACK_TIMEOUT);
        this.table = Objects.requireNonNull(table);
    }

    public StoreWeightsRequest(StreamInput in) throws IOException {
        super(in);
        StreamInput body = WireEnvelope.read(in).in();
        this.table = WeightsMetadata.readTable(body);
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        super.writeTo(out);
        WireEnvelope.write(out, body -> WeightsMetadata.writeTable(body, table));
    }

    @Override
    public ActionRequestValidationException validate() {
        return null;
    }

    public WeightsTable table() {
        return table;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof StoreWeightsRequest r && table.equals(r.table) && masterNodeTimeout().equals(r.masterNodeTimeout())
            && ackTimeout().equals(r.ackTimeout());
    }

    @Override
    public int hashCode() {
        return Objects.hash(table, masterNodeTimeout(), ackTimeout());
    }
}
