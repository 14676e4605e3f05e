package dev.simhash.duplicates;

import org.elasticsearch.common.io.stream.StreamInput;

import java.io.IOException;

/** {@code GET _simhash/duplicates/<id>}: the report to read. */
public final class ReportGetRequest extends ReportIdRequest {

    public ReportGetRequest(String id) {
        super(id);
    }

    public ReportGetRequest(StreamInput in) throws IOException {
        super(in);
    }
}
