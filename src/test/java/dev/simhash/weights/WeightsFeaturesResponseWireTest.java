package dev.simhash.weights;

import org.elasticsearch.common.io.stream.Writeable;
import org.elasticsearch.test.AbstractWireSerializingTestCase;

import java.util.Locale;

/** Elasticsearch's wire contract (round trips, equals and hashCode) for {@link WeightsFeaturesResponse}. */
public class WeightsFeaturesResponseWireTest extends AbstractWireSerializingTestCase<WeightsFeaturesResponse> {
    @Override
    protected WeightsFeaturesResponse createTestInstance() {
        return new WeightsFeaturesResponse(WeightsMetadataWireTest.randomTable(randomAlphaOfLengthBetween(1, 8).toLowerCase(Locale.ROOT)));
    }

    @Override
    protected WeightsFeaturesResponse mutateInstance(WeightsFeaturesResponse r) {
        return new WeightsFeaturesResponse(WeightsMetadataWireTest.randomTable(r.table().name() + "x"));
    }

    @Override
    protected Writeable.Reader<WeightsFeaturesResponse> instanceReader() {
        return WeightsFeaturesResponse::new;
    }
}
