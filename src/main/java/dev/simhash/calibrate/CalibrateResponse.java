package dev.simhash.calibrate;

import dev.simhash.wire.WireEnvelope;

import org.elasticsearch.action.ActionResponse;
import org.elasticsearch.common.io.stream.StreamInput;
import org.elasticsearch.common.io.stream.StreamOutput;
import org.elasticsearch.xcontent.ToXContentObject;
import org.elasticsearch.xcontent.XContentBuilder;

import java.io.IOException;
import java.util.Map;
import java.util.Objects;

/**
 * The calibration report: the request's parameters, the field's fingerprint options and the {@link Calibration} of the
 * sample, as one ordered map of plain values (numbers, strings, lists, maps).
 */
public final class CalibrateResponse extends ActionResponse implements ToXContentObject {

    private final Map<String, Object> report;

    public CalibrateResponse(Map<String, Object> report) {
        this.report = Objects.requireNonNull(report);
    }

    public CalibrateResponse(StreamInput in) throws IOException {
        StreamInput body = WireEnvelope.read(in).in();
        report = body.readGenericMap();
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        WireEnvelope.write(out, body -> body.writeGenericMap(report));
    }

    public Map<String, Object> report() {
        return report;
    }

    @Override
    public XContentBuilder toXContent(XContentBuilder builder, Params params) throws IOException {
        return builder.map(report);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CalibrateResponse r && report.equals(r.report);
    }

    @Override
    public int hashCode() {
        return report.hashCode();
    }
}
