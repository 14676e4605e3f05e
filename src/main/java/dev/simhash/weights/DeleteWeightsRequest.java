package dev.simhash.weights;

import dev.simhash.wire.WireEnvelope;

import org.elasticsearch.action.ActionRequestValidationException;
import org.elasticsearch.action.support.master.AcknowledgedRequest;
import org.elasticsearch.common.io.stream.StreamInput;
import org.elasticsearch.common.io.stream.StreamOutput;

import java.io.IOException;
import java.util.Objects;

/** The request of {@link DeleteWeightsAction}: the name of the table to delete. */
public final class DeleteWeightsRequest extends AcknowledgedRequest<DeleteWeightsRequest> {
    private final String name;

    public DeleteWeightsRequest(String name) {
        super(TRAPPY_IMPLICIT_DEFAULT_MASTER_NODE_TIMEOUT, DEFAULT_ACK_TIMEOUT);
        this.name = Objects.requireNonNull(name);
    }

    public DeleteWeightsRequest(StreamInput in) throws IOException {
        super(in);
        StreamInput body = WireEnvelope.read(in).in();
        this.name = body.readString();
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        super.writeTo(out);
        WireEnvelope.write(out, body -> body.writeString(name));
    }

    @Override
    public ActionRequestValidationException validate() {
        return null;
    }

    public String name() {
        return name;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DeleteWeightsRequest r && name.equals(r.name) && masterNodeTimeout().equals(r.masterNodeTimeout())
            && ackTimeout().equals(r.ackTimeout());
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, masterNodeTimeout(), ackTimeout());
    }
}
