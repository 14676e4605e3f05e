package dev.simhash.calibrate;

import org.elasticsearch.action.support.IndicesOptions;
import org.elasticsearch.common.io.stream.Writeable;
import org.elasticsearch.test.AbstractWireSerializingTestCase;

/** Elasticsearch's wire contract (round trips, equals and hashCode) for {@link CalibrateRequest}. */
public class CalibrateRequestWireTest extends AbstractWireSerializingTestCase<CalibrateRequest> {

    private static final IndicesOptions[] OPTIONS = {IndicesOptions.strictExpandOpenAndForbidClosed(), IndicesOptions.lenientExpandOpen(),
        IndicesOptions.strictSingleIndexNoExpandForbidClosed()};

    @Override
    protected CalibrateRequest createTestInstance() {
        return new CalibrateRequest(randomArray(1, 3, String[]::new, () -> randomAlphaOfLengthBetween(1, 6)))
            .indicesOptions(randomFrom(OPTIONS))
            .field(randomAlphaOfLengthBetween(1, 10))
            .sourceField(randomBoolean() ? null : randomAlphaOfLengthBetween(1, 10))
            .sampleSize(between(2, CalibrateRequest.MAX_SAMPLE_SIZE))
            .seed(randomLong())
            .maxFalseMatchRate(randomDoubleBetween(1e-9, 0.5, true));
    }

    @Override
    protected CalibrateRequest mutateInstance(CalibrateRequest r) {
        CalibrateRequest m = new CalibrateRequest(r.indices()).indicesOptions(r.indicesOptions()).field(r.field())
            .sourceField(r.sourceField()).sampleSize(r.sampleSize()).seed(r.seed()).maxFalseMatchRate(r.maxFalseMatchRate());
        switch (between(0, 6)) {
            case 0 -> m.indices(r.indices()[0] + "x");
            case 1 -> m.indicesOptions(randomValueOtherThan(r.indicesOptions(), () -> randomFrom(OPTIONS)));
            case 2 -> m.field(r.field() + "x");
            case 3 -> m.sourceField(r.sourceField() == null ? "body" : null);
            case 4 -> m.sampleSize(r.sampleSize() == 2 ? 3 : r.sampleSize() - 1);
            case 5 -> m.seed(r.seed() + 1);
            default -> m.maxFalseMatchRate(r.maxFalseMatchRate() / 2);
        }
        return m;
    }

    @Override
    protected Writeable.Reader<CalibrateRequest> instanceReader() {
        return CalibrateRequest::new;
    }
}
