package dev.simhash.duplicates;

import org.elasticsearch.common.io.stream.Writeable;
import org.elasticsearch.test.AbstractWireSerializingTestCase;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Elasticsearch's wire contract for a stored report as its reader sees it. */
public class ReportGetResponseWireTest extends AbstractWireSerializingTestCase<ReportGetResponse> {

    private static Map<String, Object> randomView() {
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("id", randomAlphaOfLength(8) + ":" + randomNonNegativeInt());
        view.put("is_running", randomBoolean());
        view.put("state", randomFrom("running", "completed", "failed"));
        if (randomBoolean()) {
            view.put("response", Map.of("groups_total", randomNonNegativeInt(), "groups", List.of(Map.of("group_id", randomAlphaOfLength(16)))));
        }
        if (randomBoolean()) {
            view.put("error", Map.of("type", "illegal_argument_exception", "status", 400));
        }
        view.put("expiration_time_in_millis", randomNonNegativeLong());
        return view;
    }

    @Override
    protected ReportGetResponse createTestInstance() {
        return new ReportGetResponse(randomView());
    }

    @Override
    protected ReportGetResponse mutateInstance(ReportGetResponse instance) {
        return new ReportGetResponse(randomValueOtherThan(instance.view(), ReportGetResponseWireTest::randomView));
    }

    @Override
    protected Writeable.Reader<ReportGetResponse> instanceReader() {
        return ReportGetResponse::new;
    }
}
