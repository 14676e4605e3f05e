package dev.simhash.weights;

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
        this(in.readString(), in.readVLong(), in.readVLong(), in.readVInt());
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        out.writeString(phase);
        out.writeVLong(docsRead);
        out.writeVLong(sampleSize);
        out.writeVInt(featuresCounted);
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
