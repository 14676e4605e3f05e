package dev.simhash.duplicates;

import org.elasticsearch.common.io.stream.Writeable;
import org.elasticsearch.test.AbstractWireSerializingTestCase;

import java.util.Arrays;

/**
 * Elasticsearch's wire contract for the requests that read and delete a stored report ({@code GET} and {@code DELETE
 * _simhash/duplicates/<id>}), with the indices security narrowed them to.
 */
public class ReportRequestsWireTest extends AbstractWireSerializingTestCase<ReportIdRequest> {

    private static ReportIdRequest of(boolean get, String id, String[] indices) {
        ReportIdRequest r = get ? new ReportGetRequest(id) : new ReportDeleteRequest(id);
        r.indices(indices);
        return r;
    }

    @Override
    protected ReportIdRequest createTestInstance() {
        return of(randomBoolean(), randomAlphaOfLengthBetween(5, 22) + ":" + randomNonNegativeInt(),
            randomArray(0, 3, String[]::new, () -> randomAlphaOfLengthBetween(1, 8)));
    }

    @Override
    protected ReportIdRequest mutateInstance(ReportIdRequest instance) {
        boolean get = instance instanceof ReportGetRequest;
        return switch (between(0, 2)) {
            case 0 -> of(get == false, instance.id(), instance.indices());
            case 1 -> of(get, instance.id() + "1", instance.indices());
            default -> of(get, instance.id(), randomValueOtherThanMany(i -> Arrays.equals(i, instance.indices()),
                () -> randomArray(0, 3, String[]::new, () -> randomAlphaOfLengthBetween(1, 8))));
        };
    }

    /** Each request is read by its own reader, as its transport action registers it. */
    @Override
    protected Writeable.Reader<ReportIdRequest> instanceReader() {
        return in -> in.readBoolean() ? new ReportGetRequest(in) : new ReportDeleteRequest(in);
    }

    @Override
    protected Writeable.Writer<ReportIdRequest> instanceWriter() {
        return (out, r) -> {
            out.writeBoolean(r instanceof ReportGetRequest);
            r.writeTo(out);
        };
    }
}
