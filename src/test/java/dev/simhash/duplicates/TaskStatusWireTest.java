package dev.simhash.duplicates;

import dev.simhash.SimHashPlugin;
import dev.simhash.weights.WeightsStatus;

import org.elasticsearch.common.io.stream.NamedWriteableRegistry;
import org.elasticsearch.tasks.Task;
import org.elasticsearch.test.AbstractNamedWriteableTestCase;
/** Elasticsearch's wire contract for the task statuses of the plugin (as {@code _tasks} reads them from other nodes). */
public class TaskStatusWireTest extends AbstractNamedWriteableTestCase<Task.Status> {

    @Override
    protected Task.Status createTestInstance() {
        if (randomBoolean()) {
            return new WeightsStatus(randomFrom("count", "select", "read", "store"), randomNonNegativeLong(), randomNonNegativeLong(),
                randomNonNegativeInt());
        }
        return new DuplicatesStatus(randomFrom(DuplicatesStatus.Phase.values()), randomNonNegativeInt(), randomNonNegativeLong(),
            randomLongBetween(-1, Long.MAX_VALUE), randomNonNegativeLong(), randomNonNegativeLong(), randomNonNegativeLong());
    }

    @Override
    protected Task.Status mutateInstance(Task.Status instance) {
        if (instance instanceof WeightsStatus w) {
            return new WeightsStatus(w.phase(), w.docsRead() + 1, w.sampleSize(), w.featuresCounted());
        }
        DuplicatesStatus d = (DuplicatesStatus) instance;
        return new DuplicatesStatus(d.phase(), d.slices(), d.docsRead(), d.docsTotal(), d.groupsFound() == 0 ? 1 : 0, d.docsWritten(),
            d.docsToWrite());
    }

    @Override
    protected NamedWriteableRegistry getNamedWriteableRegistry() {
        // as the plugin registers them
        return new NamedWriteableRegistry(new SimHashPlugin().getNamedWriteables());
    }

    @Override
    protected Class<Task.Status> categoryClass() {
        return Task.Status.class;
    }
}
