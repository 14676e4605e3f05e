package dev.simhash.duplicates;

import dev.simhash.wire.WireEnvelope;

import org.elasticsearch.action.ActionResponse;
import org.elasticsearch.common.io.stream.StreamInput;
import org.elasticsearch.common.io.stream.StreamOutput;
import org.elasticsearch.xcontent.ToXContentObject;
import org.elasticsearch.xcontent.XContentBuilder;

import java.io.IOException;
import java.util.Objects;

/** The id of a report started in the background: {@code GET _simhash/duplicates/<id>} reads it. */
public final class AsyncDuplicatesResponse extends ActionResponse implements ToXContentObject {

    private final String id;

    public AsyncDuplicatesResponse(String id) {
        this.id = id;
    }

    public AsyncDuplicatesResponse(StreamInput in) throws IOException {
        StreamInput body = WireEnvelope.read(in).in();
        this.id = body.readString();
    }

    public String id() {
        return id;
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        WireEnvelope.write(out, body -> body.writeString(id));
    }

    @Override
    public XContentBuilder toXContent(XContentBuilder builder, Params params) throws IOException {
        // [task] as before (the id is the task's id, listed by _tasks while it runs), [id] for _simhash/duplicates/<id>
        return builder.startObject().field("task", id).field("id", id).endObject();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof AsyncDuplicatesResponse that && Objects.equals(id, that.id);
    }

    @Override
    public int hashCode() {
        return Objects.hashCode(id);
    }
}
