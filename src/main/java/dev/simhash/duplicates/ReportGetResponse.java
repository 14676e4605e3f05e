package dev.simhash.duplicates;

import dev.simhash.wire.WireEnvelope;

import org.elasticsearch.action.ActionResponse;
import org.elasticsearch.common.io.stream.StreamInput;
import org.elasticsearch.common.io.stream.StreamOutput;
import org.elasticsearch.xcontent.ToXContentObject;
import org.elasticsearch.xcontent.XContentBuilder;

import java.io.IOException;
import java.util.Map;
import java.util.Objects;

/** A stored report as its reader sees it: state, progress, and the response or the error (see {@link ReportRecord#view}). */
public final class ReportGetResponse extends ActionResponse implements ToXContentObject {

    private final Map<String, Object> view;

    public ReportGetResponse(Map<String, Object> view) {
        this.view = view;
    }

    public ReportGetResponse(StreamInput in) throws IOException {
        StreamInput body = WireEnvelope.read(in).in();
        this.view = body.readGenericMap();
    }

    public Map<String, Object> view() {
        return view;
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        WireEnvelope.write(out, body -> body.writeGenericMap(view));
    }

    @Override
    public XContentBuilder toXContent(XContentBuilder builder, Params params) throws IOException {
        return builder.map(view);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ReportGetResponse that && Objects.equals(view, that.view);
    }

    @Override
    public int hashCode() {
        return Objects.hashCode(view);
    }
}
