package dev.simhash.duplicates;

import dev.simhash.core.SimHash;
import dev.simhash.wire.WireEnvelope;

import org.elasticsearch.action.ActionRequest;
import org.elasticsearch.action.ActionRequestValidationException;
import org.elasticsearch.action.IndicesRequest;
import org.elasticsearch.action.support.IndicesOptions;
import org.elasticsearch.common.io.stream.StreamInput;
import org.elasticsearch.common.io.stream.StreamOutput;
import org.elasticsearch.core.TimeValue;

import java.io.IOException;
import java.util.Objects;

/**
 * A report to run in the background and how long its record is kept: the report's indices are this request's, so
 * security resolves and authorizes them before the report is stored.
 */
public final class AsyncDuplicatesRequest extends ActionRequest implements IndicesRequest.Replaceable {

    /** How long a report's record is kept by default (as Elasticsearch's async search keeps its results). */
    public static final TimeValue DEFAULT_KEEP_ALIVE = TimeValue.timeValueDays(5);
    /** The shortest keep-alive: a record must outlive the request that starts it. */
    public static final TimeValue MIN_KEEP_ALIVE = TimeValue.timeValueSeconds(1);
    /**
     * The longest keep-alive: a record's expiration time (start plus keep-alive, in milliseconds) must stay a valid time,
     * and a year is longer than any report needs to be kept.
     */
    public static final TimeValue MAX_KEEP_ALIVE = TimeValue.timeValueDays(365);

    private final DuplicatesRequest report;
    private final TimeValue keepAlive;

    public AsyncDuplicatesRequest(DuplicatesRequest report, TimeValue keepAlive) {
        this.report = Objects.requireNonNull(report);
        this.keepAlive = checkKeepAlive(Objects.requireNonNull(keepAlive));
    }

    public AsyncDuplicatesRequest(StreamInput in) throws IOException {
        super(in);
        StreamInput body = WireEnvelope.read(in).in();
        this.report = new DuplicatesRequest(body);
        this.keepAlive = body.readTimeValue();
    }

    /**
     * A keep-alive given by the caller: from {@link #MIN_KEEP_ALIVE} to {@link #MAX_KEEP_ALIVE}, else a 400 naming
     * {@code [keep_alive]}.
     */
    public static TimeValue checkKeepAlive(TimeValue keepAlive) {
        if (keepAlive.compareTo(MIN_KEEP_ALIVE) < 0) {
            throw new IllegalArgumentException("[keep_alive] must be at least [" + MIN_KEEP_ALIVE + "], got [" + keepAlive + "]");
        }
        if (keepAlive.compareTo(MAX_KEEP_ALIVE) > 0) {
            String given = keepAlive.getStringRep() == null ? keepAlive.toString() : keepAlive.getStringRep();
            throw new IllegalArgumentException("[keep_alive] must be at most [" + MAX_KEEP_ALIVE + "], got [" + SimHash.abbreviate(given)
                + "]: the report's record is kept at most that long");
        }
        return keepAlive;
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        super.writeTo(out);
        WireEnvelope.write(out, body -> {
            report.writeTo(body);
            body.writeTimeValue(keepAlive);
        });
    }

    public DuplicatesRequest report() {
        return report;
    }

    public TimeValue keepAlive() {
        return keepAlive;
    }

    @Override
    public String[] indices() {
        return report.indices();
    }

    @Override
    public IndicesRequest indices(String... indices) {
        report.indices(indices);
        return this;
    }

    @Override
    public IndicesOptions indicesOptions() {
        return report.indicesOptions();
    }

    @Override
    public ActionRequestValidationException validate() {
        return report.validate();
    }

    @Override
    public String getDescription() {
        return "start " + report.getDescription();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof AsyncDuplicatesRequest that && report.equals(that.report) && keepAlive.equals(that.keepAlive);
    }

    @Override
    public int hashCode() {
        return Objects.hash(report, keepAlive);
    }
}
