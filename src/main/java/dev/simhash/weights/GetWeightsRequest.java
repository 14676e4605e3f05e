package dev.simhash.weights;

import dev.simhash.wire.WireEnvelope;

import org.elasticsearch.action.ActionRequest;
import org.elasticsearch.action.ActionRequestValidationException;
import org.elasticsearch.common.io.stream.StreamInput;
import org.elasticsearch.common.io.stream.StreamOutput;

import java.io.IOException;
import java.util.Objects;

/** The request of {@link GetWeightsAction}: one table by name, or all (name null); how many features to include per table. */
public final class GetWeightsRequest extends ActionRequest {
    private final String name;
    private final int featureLimit;

    public GetWeightsRequest(String name, int featureLimit) {
        this.name = name;
        this.featureLimit = featureLimit;
    }

    public GetWeightsRequest(StreamInput in) throws IOException {
        super(in);
        StreamInput body = WireEnvelope.read(in).in();
        this.name = body.readOptionalString();
        this.featureLimit = body.readVInt();
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        super.writeTo(out);
        WireEnvelope.write(out, body -> {
            body.writeOptionalString(name);
            body.writeVInt(featureLimit);
        });
    }

    @Override
    public ActionRequestValidationException validate() {
        return null;
    }

    /** The table's name, or null for all tables. */
    public String name() {
        return name;
    }

    /** Features shown per table, in sorted order (0: none). */
    public int featureLimit() {
        return featureLimit;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof GetWeightsRequest r && Objects.equals(name, r.name) && featureLimit == r.featureLimit;
    }

    @Override
    public int hashCode() {
        return 31 * Objects.hashCode(name) + featureLimit;
    }
}
