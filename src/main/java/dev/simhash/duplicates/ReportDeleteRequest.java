package dev.simhash.duplicates;

import org.elasticsearch.common.io.stream.StreamInput;

import java.io.IOException;

/** {@code DELETE _simhash/duplicates/<id>}: the report to cancel and delete. */
public final class ReportDeleteRequest extends ReportIdRequest {

    public ReportDeleteRequest(String id) {
        super(id);
    }

    public ReportDeleteRequest(StreamInput in) throws IOException {
        super(in);
    }
}
