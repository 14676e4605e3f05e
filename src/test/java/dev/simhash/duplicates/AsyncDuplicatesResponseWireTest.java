package dev.simhash.duplicates;

import org.elasticsearch.common.io.stream.Writeable;
import org.elasticsearch.test.AbstractWireSerializingTestCase;

/** Elasticsearch's wire contract for the id of a report started in the background. */
public class AsyncDuplicatesResponseWireTest extends AbstractWireSerializingTestCase<AsyncDuplicatesResponse> {

    @Override
    protected AsyncDuplicatesResponse createTestInstance() {
        return new AsyncDuplicatesResponse(randomAlphaOfLength(20), randomAlphaOfLengthBetween(5, 22) + ":" + randomNonNegativeInt());
    }

    @Override
    protected AsyncDuplicatesResponse mutateInstance(AsyncDuplicatesResponse instance) {
        return randomBoolean() ? new AsyncDuplicatesResponse(instance.id() + "1", instance.task())
            : new AsyncDuplicatesResponse(instance.id(), instance.task() + "1");
    }

    @Override
    protected Writeable.Reader<AsyncDuplicatesResponse> instanceReader() {
        return AsyncDuplicatesResponse::new;
    }
}
