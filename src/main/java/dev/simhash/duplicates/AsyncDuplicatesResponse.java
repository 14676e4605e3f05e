package dev.simhash.duplicates;

import dev.simhash.wire.WireEnvelope;

import org.elasticsearch.action.ActionResponse;
import org.elasticsearch.common.io.stream.StreamInput;
import org.elasticsearch.common.io.stream.StreamOutput;
import org.elasticsearch.xcontent.ToXContentObject;
import org.elasticsearch.xcontent.XContentBuilder;

import java.io.IOException;
import java.util.Objects;

/**
 * The id of a report started in the background ({@code GET _simhash/duplicates/<id>} reads it) and the id of the task that
 * runs it ({@code _tasks} lists it while it runs).
 */
public final class AsyncDuplicatesResponse extends ActionResponse implements ToXContentObject {

    private final String id;
    private final String task;

    public AsyncDuplicatesResponse(String id, String task) {
        this.id = id;
        this.task = task;
    }

    public AsyncDuplicatesResponse(StreamInput in) throws IOException {
        StreamInput body = WireEnvelope.read(in).in();
        this.id = body.readString();
        this.task = body.readString();
    }

    public String id() {
        return id;
    }

    public String task() {
        return task;
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        WireEnvelope.write(out, body -> {
            body.writeString(id);
            body.writeString(task);
        });
    }

    @Override
    public XContentBuilder toXContent(XContentBuilder builder, Params params) throws IOException {
        return builder.startObject().field("task", task).field("id", id).endObject();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof AsyncDuplicatesResponse that && Objects.equals(id, that.id) && Objects.equals(task, that.task);
    }

    @Override
    public int hashCode() {
        return Objects.hash(id, task);
    }
}
