package dev.simhash.query;

import dev.simhash.wire.WireEnvelope;

import org.elasticsearch.action.ActionRequestValidationException;
import org.elasticsearch.action.ValidateActions;
import org.elasticsearch.action.support.single.shard.SingleShardRequest;
import org.elasticsearch.common.io.stream.StreamInput;
import org.elasticsearch.common.io.stream.StreamOutput;

import java.io.IOException;

/** The liked document {@code id} (with its {@code routing}, null for none) of the concrete index {@code index}, and its {@code simhash} field. */
public final class LikedValuesRequest extends SingleShardRequest<LikedValuesRequest> {

    private final String id;
    private final String routing;
    private final String field;

    LikedValuesRequest(String index, String id, String routing, String field) {
        super(index);
        this.id = id;
        this.routing = routing;
        this.field = field;
    }

    public LikedValuesRequest(StreamInput in) throws IOException {
        super(in);
        StreamInput body = WireEnvelope.read(in).in();
        id = body.readString();
        routing = body.readOptionalString();
        field = body.readString();
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        super.writeTo(out);
        WireEnvelope.write(out, body -> {
            body.writeString(id);
            body.writeOptionalString(routing);
            body.writeString(field);
        });
    }

    @Override
    public ActionRequestValidationException validate() {
        ActionRequestValidationException e = validateNonNullIndex();
        if (id == null || field == null) {
            e = ValidateActions.addValidationError("[id] and [field] are required", e);
        }
        return e;
    }

    @Override
    public String getDescription() {
        return "simhash like [" + index + "][" + id + "] field [" + field + "]";
    }

    String id() {
        return id;
    }

    String routing() {
        return routing;
    }

    String field() {
        return field;
    }
}
