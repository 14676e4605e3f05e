package dev.simhash.weights;

import org.elasticsearch.common.io.stream.Writeable;
import org.elasticsearch.test.AbstractWireSerializingTestCase;

import java.util.Locale;

/** Elasticsearch's wire contract (round trips, equals and hashCode) for {@link PutWeightsResponse}. */
public class PutWeightsResponseWireTest extends AbstractWireSerializingTestCase<PutWeightsResponse> {

    @Override
    protected PutWeightsResponse createTestInstance() {
        return new PutWeightsResponse(WeightsMetadataWireTest.randomTable(randomAlphaOfLengthBetween(1, 8).toLowerCase(Locale.ROOT)), randomBoolean());
    }

    @Override
    protected PutWeightsResponse mutateInstance(PutWeightsResponse r) {
        if (randomBoolean()) {
            return new PutWeightsResponse(r.table(), !r.isAcknowledged());
        }
        return new PutWeightsResponse(WeightsMetadataWireTest.randomTable(r.table().name() + "x"), r.isAcknowledged());
    }

    @Override
    protected Writeable.Reader<PutWeightsResponse> instanceReader() {
        return PutWeightsResponse::new;
    }
}
