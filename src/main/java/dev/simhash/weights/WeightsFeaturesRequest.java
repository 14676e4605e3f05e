package dev.simhash.weights;

import dev.simhash.wire.WireEnvelope;

import org.elasticsearch.action.ActionRequest;
import org.elasticsearch.action.ActionRequestValidationException;
import org.elasticsearch.action.IndicesRequest;
import org.elasticsearch.action.support.IndicesOptions;
import org.elasticsearch.common.io.stream.StreamInput;
import org.elasticsearch.common.io.stream.StreamOutput;

import java.io.IOException;
import java.util.Arrays;
import java.util.Objects;

/**
 * The request of {@link WeightsFeaturesAction}: the table's name; for {@code READ} also the indices it was computed from,
 * which security authorizes.
 */
public final class WeightsFeaturesRequest extends ActionRequest implements IndicesRequest {
    private final String name;
    private final String[] indices;

    public WeightsFeaturesRequest(String name, String[] indices) {
        this.name = Objects.requireNonNull(name);
        this.indices = indices == null ? new String[0] : indices.clone();
    }

    public WeightsFeaturesRequest(StreamInput in) throws IOException {
        super(in);
        StreamInput body = WireEnvelope.read(in).in();
        this.name = body.readString();
        this.indices = body.readStringArray();
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        super.writeTo(out);
        WireEnvelope.write(out, body -> {
            body.writeString(name);
            body.writeStringArray(indices);
        });
    }

    public String name() {
        return name;
    }

    @Override
    public String[] indices() {
        return indices;
    }

    @Override
    public IndicesOptions indicesOptions() {
        // names as recorded, never expanded: the caller must be allowed to read each of them
        return IndicesOptions.strictNoExpandForbidClosed();
    }

    @Override
    public ActionRequestValidationException validate() {
        return null;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof WeightsFeaturesRequest r && name.equals(r.name) && Arrays.equals(indices, r.indices);
    }

    @Override
    public int hashCode() {
        return 31 * name.hashCode() + Arrays.hashCode(indices);
    }
}
