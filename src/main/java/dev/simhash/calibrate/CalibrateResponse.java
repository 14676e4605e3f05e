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
 * sample. The node that computes it holds the typed {@link CalibrationReport}; on the wire, and in a response read from
 * it, the report is the one ordered map of plain values (numbers, strings, lists, maps) that the record writes.
 */
public final class CalibrateResponse extends ActionResponse implements ToXContentObject {

    /** The typed report, on the node that computed it; null when the response was read from the wire. */
    private final CalibrationReport typed;
    /** The report as a map: as read from the wire, or written by {@link #typed} when first asked for. */
    private Map<String, Object> report;

    public CalibrateResponse(CalibrationReport report) {
        this.typed = Objects.requireNonNull(report);
    }

    public CalibrateResponse(Map<String, Object> report) {
        this.typed = null;
        this.report = Objects.requireNonNull(report);
    }

    public CalibrateResponse(StreamInput in) throws IOException {
        StreamInput body = WireEnvelope.read(in).in();
        typed = null;
        report = body.readGenericMap();
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        Map<String, Object> map = report();
        WireEnvelope.write(out, body -> body.writeGenericMap(map));
    }

    /** The typed report, on the node that computed it; null in a response read from the wire. */
    public CalibrationReport typedReport() {
        return typed;
    }

    /** The report as the response shows it: an ordered map of plain values. */
    public synchronized Map<String, Object> report() {
        if (report == null) {
            report = typed.toMap();
        }
        return report;
    }

    @Override
    public XContentBuilder toXContent(XContentBuilder builder, Params params) throws IOException {
        return builder.map(report());
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CalibrateResponse r && report().equals(r.report());
    }

    @Override
    public int hashCode() {
        return report().hashCode();
    }
}
