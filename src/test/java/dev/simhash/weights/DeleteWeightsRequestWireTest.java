package dev.simhash.weights;

import org.elasticsearch.common.io.stream.Writeable;
import org.elasticsearch.core.TimeValue;
import org.elasticsearch.test.AbstractWireSerializingTestCase;

/** Elasticsearch's wire contract (round trips, equals and hashCode) for {@link DeleteWeightsRequest}, its timeouts included. */
public class DeleteWeightsRequestWireTest extends AbstractWireSerializingTestCase<DeleteWeightsRequest> {

    @Override
    protected DeleteWeightsRequest createTestInstance() {
        DeleteWeightsRequest r = new DeleteWeightsRequest(randomAlphaOfLengthBetween(1, 8));
        if (randomBoolean()) {
            r.ackTimeout(TimeValue.timeValueSeconds(between(0, 100)));
        }
        return r;
    }

    @Override
    protected DeleteWeightsRequest mutateInstance(DeleteWeightsRequest r) {
        if (randomBoolean()) {
            return new DeleteWeightsRequest(r.name() + "x").ackTimeout(r.ackTimeout());
        }
        return new DeleteWeightsRequest(r.name()).ackTimeout(TimeValue.timeValueMillis(r.ackTimeout().millis() + 1));
    }

    @Override
    protected Writeable.Reader<DeleteWeightsRequest> instanceReader() {
        return DeleteWeightsRequest::new;
    }
}
