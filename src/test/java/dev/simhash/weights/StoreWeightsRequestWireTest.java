package dev.simhash.weights;

import org.elasticsearch.common.io.stream.Writeable;
import org.elasticsearch.core.TimeValue;
import org.elasticsearch.test.AbstractWireSerializingTestCase;

import java.util.Locale;

/** Elasticsearch's wire contract (round trips, equals and hashCode) for {@link StoreWeightsRequest}, its timeouts included. */
public class StoreWeightsRequestWireTest extends AbstractWireSerializingTestCase<StoreWeightsRequest> {

    @Override
    protected StoreWeightsRequest createTestInstance() {
        StoreWeightsRequest r = new StoreWeightsRequest(WeightsMetadataWireTest.randomTable(randomAlphaOfLengthBetween(1, 8).toLowerCase(Locale.ROOT)));
        if (randomBoolean()) {
            r.ackTimeout(TimeValue.timeValueSeconds(between(0, 100)));
        }
        return r;
    }

    @Override
    protected StoreWeightsRequest mutateInstance(StoreWeightsRequest r) {
        if (randomBoolean()) {
            return new StoreWeightsRequest(WeightsMetadataWireTest.randomTable(r.table().name() + "x")).ackTimeout(r.ackTimeout());
        }
        return new StoreWeightsRequest(r.table()).ackTimeout(TimeValue.timeValueMillis(r.ackTimeout().millis() + 1));
    }

    @Override
    protected Writeable.Reader<StoreWeightsRequest> instanceReader() {
        return StoreWeightsRequest::new;
    }
}
