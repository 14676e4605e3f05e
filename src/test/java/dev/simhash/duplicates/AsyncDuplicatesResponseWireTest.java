package dev.simhash.duplicates;

import org.elasticsearch.common.io.stream.Writeable;
import org.elasticsearch.test.AbstractWireSerializingTestCase;

/** Elasticsearch's wire contract for the id of a report started in the background. */
public class AsyncDuplicatesResponseWireTest extends AbstractWireSerializingTestCase<AsyncDuplicatesResponse> {

    @Override
    protected AsyncDuplicatesResponse createTestInstance() {
        return new AsyncDuplicatesResponse(randomAlphaOfLengthBetween(5, 22) + ":" + randomNonNegativeInt());
    }

    @Override
    protected AsyncDuplicatesResponse mutateInstance(AsyncDuplicatesResponse instance) {
        return new AsyncDuplicatesResponse(instance.id() + "1");
    }

    @Override
    protected Writeable.Reader<AsyncDuplicatesResponse> instanceReader() {
        return AsyncDuplicatesResponse::new;
    }
}
