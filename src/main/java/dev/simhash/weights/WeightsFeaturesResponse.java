package dev.simhash.weights;

import dev.simhash.wire.WireEnvelope;

import org.elasticsearch.action.ActionResponse;
import org.elasticsearch.common.io.stream.StreamInput;
import org.elasticsearch.common.io.stream.StreamOutput;

import java.io.IOException;
import java.util.Objects;

/** The answer of {@link WeightsFeaturesAction}: the whole table. */
public final class WeightsFeaturesResponse extends ActionResponse {
    private final WeightsTable table;

    WeightsFeaturesResponse(WeightsTable table) {
        this.table = Objects.requireNonNull(table);
    }

    public WeightsFeaturesResponse(StreamInput in) throws IOException {
        StreamInput body = WireEnvelope.read(in).in();
        this.table = WeightsMetadata.readTable(body);
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        WireEnvelope.write(out, body -> WeightsMetadata.writeTable(body, table));
    }

    public WeightsTable table() {
        return table;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof WeightsFeaturesResponse r && table.equals(r.table);
    }

    @Override
    public int hashCode() {
        return table.hashCode();
    }
}
