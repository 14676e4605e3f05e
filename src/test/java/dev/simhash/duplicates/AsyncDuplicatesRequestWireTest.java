package dev.simhash.duplicates;

import org.elasticsearch.common.io.stream.NamedWriteableRegistry;
import org.elasticsearch.common.io.stream.Writeable;
import org.elasticsearch.core.TimeValue;
import org.elasticsearch.test.AbstractWireSerializingTestCase;

import java.io.IOException;

/** Elasticsearch's wire contract for the request that starts a report in the background. */
public class AsyncDuplicatesRequestWireTest extends AbstractWireSerializingTestCase<AsyncDuplicatesRequest> {

    @Override
    protected AsyncDuplicatesRequest createTestInstance() {
        return new AsyncDuplicatesRequest(DuplicatesRequestWireTest.randomRequest(), TimeValue.timeValueSeconds(between(1, 1_000_000)));
    }

    @Override
    protected AsyncDuplicatesRequest mutateInstance(AsyncDuplicatesRequest instance) throws IOException {
        if (randomBoolean()) {
            return new AsyncDuplicatesRequest(instance.report(), TimeValue.timeValueSeconds(instance.keepAlive().seconds() + 1));
        }
        return new AsyncDuplicatesRequest(DuplicatesRequestWireTest.mutate(instance.report()), instance.keepAlive());
    }

    @Override
    protected Writeable.Reader<AsyncDuplicatesRequest> instanceReader() {
        return AsyncDuplicatesRequest::new;
    }

    @Override
    protected NamedWriteableRegistry getNamedWriteableRegistry() {
        return DuplicatesRequestWireTest.REGISTRY;
    }
}
