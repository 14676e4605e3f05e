package dev.simhash.weights;

import dev.simhash.wire.WireEnvelope;

import org.elasticsearch.action.ActionResponse;
import org.elasticsearch.common.io.stream.StreamInput;
import org.elasticsearch.common.io.stream.StreamOutput;
import org.elasticsearch.xcontent.ToXContentObject;
import org.elasticsearch.xcontent.XContentBuilder;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** The answer of {@link GetWeightsAction}: the tables found (one when a name was asked for), with their first features. */
public final class GetWeightsResponse extends ActionResponse implements ToXContentObject {
    private final String name;
    private final List<WeightsTable> tables;
    private final int featureLimit;

    GetWeightsResponse(String name, List<WeightsTable> tables, int featureLimit) {
        this.name = name;
        this.tables = List.copyOf(tables);
        this.featureLimit = featureLimit;
    }

    public GetWeightsResponse(StreamInput in) throws IOException {
        StreamInput body = WireEnvelope.read(in).in();
        this.name = body.readOptionalString();
        int n = body.readVInt();
        List<WeightsTable> t = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            t.add(WeightsMetadata.readTable(body));
        }
        this.tables = List.copyOf(t);
        this.featureLimit = body.readVInt();
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        WireEnvelope.write(out, body -> {
            body.writeOptionalString(name);
            body.writeVInt(tables.size());
            for (WeightsTable t : tables) {
                WeightsMetadata.writeTable(body, t);
            }
            body.writeVInt(featureLimit);
        });
    }

    /** The name asked for, or null when all tables were. */
    String name() {
        return name;
    }

    List<WeightsTable> tables() {
        return tables;
    }

    /** Features shown per table. */
    int featureLimit() {
        return featureLimit;
    }

    @Override
    public XContentBuilder toXContent(XContentBuilder b, Params params) throws IOException {
        if (name != null) {
            return table(b, tables.get(0));
        }
        b.startObject().startArray("tables");
        for (WeightsTable t : tables) {
            table(b, t);
        }
        return b.endArray().endObject();
    }

    private XContentBuilder table(XContentBuilder b, WeightsTable t) throws IOException {
        b.startObject().field("name", t.name());
        WeightsMetadata.tableToXContent(b, t, featureLimit);
        return b.endObject();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof GetWeightsResponse r && Objects.equals(name, r.name) && tables.equals(r.tables)
            && featureLimit == r.featureLimit;
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, tables, featureLimit);
    }
}
