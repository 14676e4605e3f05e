package dev.simhash.weights;

import org.elasticsearch.tasks.CancellableTask;
import org.elasticsearch.tasks.TaskId;

import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/** The task of one {@code PUT _simhash/weights/<name>}: cancellable; its status shows the phase and the documents read of the sample. */
public final class PutWeightsTask extends CancellableTask {
    private volatile String phase = "read";
    final AtomicLong docsRead = new AtomicLong();
    private final long sampleSize;
    volatile int featuresCounted;

    PutWeightsTask(long id, String type, String action, String description, TaskId parentTaskId, Map<String, String> headers,
                   long sampleSize) {
        super(id, type, action, description, parentTaskId, headers);
        this.sampleSize = sampleSize;
    }

    void phase(String phase) {
        this.phase = phase;
    }

    @Override
    public WeightsStatus getStatus() {
        return new WeightsStatus(phase, docsRead.get(), sampleSize, featuresCounted);
    }
}
