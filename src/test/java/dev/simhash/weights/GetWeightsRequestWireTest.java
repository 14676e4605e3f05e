package dev.simhash.weights;

import org.elasticsearch.common.io.stream.Writeable;
import org.elasticsearch.test.AbstractWireSerializingTestCase;

/** Elasticsearch's wire contract (round trips, equals and hashCode) for {@link GetWeightsRequest}. */
public class GetWeightsRequestWireTest extends AbstractWireSerializingTestCase<GetWeightsRequest> {

    @Override
    protected GetWeightsRequest createTestInstance() {
        return new GetWeightsRequest(randomBoolean() ? null : randomAlphaOfLengthBetween(1, 8),
            randomFrom(0, Integer.MAX_VALUE, between(1, 10_000)));
    }

    @Override
    protected GetWeightsRequest mutateInstance(GetWeightsRequest r) {
        if (randomBoolean()) {
            return new GetWeightsRequest(r.name() == null ? "t" : null, r.featureLimit());
        }
        return new GetWeightsRequest(r.name(), r.featureLimit() == 0 ? 1 : r.featureLimit() - 1);
    }

    @Override
    protected Writeable.Reader<GetWeightsRequest> instanceReader() {
        return GetWeightsRequest::new;
    }
}
