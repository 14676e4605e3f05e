package dev.simhash.weights;

import org.elasticsearch.common.io.stream.Writeable;
import org.elasticsearch.test.AbstractWireSerializingTestCase;

import java.util.Arrays;

/** Elasticsearch's wire contract (round trips, equals and hashCode) for {@link WeightsFeaturesRequest}. */
public class WeightsFeaturesRequestWireTest extends AbstractWireSerializingTestCase<WeightsFeaturesRequest> {
    @Override
    protected WeightsFeaturesRequest createTestInstance() {
        return new WeightsFeaturesRequest(randomAlphaOfLengthBetween(1, 8), randomBoolean() ? null
            : randomArray(0, 3, String[]::new, () -> randomAlphaOfLengthBetween(1, 6)));
    }

    @Override
    protected WeightsFeaturesRequest mutateInstance(WeightsFeaturesRequest r) {
        if (randomBoolean()) {
            return new WeightsFeaturesRequest(r.name() + "x", r.indices());
        }
        String[] more = Arrays.copyOf(r.indices(), r.indices().length + 1);
        more[more.length - 1] = "another";
        return new WeightsFeaturesRequest(r.name(), more);
    }

    @Override
    protected Writeable.Reader<WeightsFeaturesRequest> instanceReader() {
        return WeightsFeaturesRequest::new;
    }
}

