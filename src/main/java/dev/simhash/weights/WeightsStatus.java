package dev.simhash.weights;

import dev.simhash.wire.WireEnvelope;

import org.elasticsearch.common.io.stream.StreamInput;
import org.elasticsearch.common.io.stream.StreamOutput;
import org.elasticsearch.tasks.Task;
import org.elasticsearch.xcontent.XContentBuilder;

import java.io.IOException;

/**
 * Progress of {@code PUT _simhash/weights/<name>} as {@code _tasks} shows it: the phase ({@code count} the documents,
 * {@code select} the random sample's scores, {@code read} the sample,
 * {@code store} the table), documents read of the sample size, distinct features counted so far.
 */
public record WeightsStatus(String phase, long docsRead, long sampleSize, int featuresCounted) implements Task.Status {

    /** The name the status is registered under (a named writeable). */
    public static final String NAME = "simhash_weights";

    public WeightsStatus(StreamInput in) throws IOException {
        this(WireEnvelope.read(in).in(), null);
    }

    // the record's canonical constructor must come first, so the body is read in a constructor of its own
    private WeightsStatus(StreamInput body, Void unused) throws IOException {
        this(body.readString(), body.readVLong(), body.readVLong(), body.readVInt());
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        WireEnvelope.write(out, body -> {
            body.writeString(phase);
            body.writeVLong(docsRead);
            body.writeVLong(sampleSize);
            body.writeVInt(featuresCounted);
        });
    }

    @Override
    public String getWriteableName() {
        return NAME;
    }

    @Override
    public XContentBuilder toXContent(XContentBuilder builder, Params params) throws IOException {
        return builder.startObject().field("phase", phase).field("docs_read", docsRead).field("sample_size", sampleSize)
            .field("features_counted", featuresCounted).endObject();
    }
}
