package dev.simhash.duplicates;

import org.elasticsearch.tasks.CancellableTask;
import org.elasticsearch.tasks.TaskId;

import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The task of one near-duplicate report: cancellable, and with a {@link DuplicatesStatus} that shows the phase and
 * the progress of reading, grouping and writing in {@code _tasks} while it runs (like {@code _reindex}).
 */
public final class DuplicatesTask extends CancellableTask {

    private volatile DuplicatesStatus.Phase phase = DuplicatesStatus.Phase.READ;
    private volatile long docsTotal = -1;
    private final AtomicLong docsRead = new AtomicLong();
    private volatile long groupsFound;
    private volatile long docsToWrite;
    private final AtomicLong docsWritten = new AtomicLong();
    private volatile int slices;

    public DuplicatesTask(long id, String type, String action, String description, TaskId parentTaskId, Map<String, String> headers) {
        super(id, type, action, description, parentTaskId, headers);
    }

    void phase(DuplicatesStatus.Phase phase) {
        this.phase = phase;
    }

    void docsTotal(long total) {
        this.docsTotal = total;
    }

    void addDocsRead(long n) {
        docsRead.addAndGet(n);
    }

    void groupsFound(long groups) {
        this.groupsFound = groups;
    }

    void docsToWrite(long n) {
        this.docsToWrite = n;
    }

    void addDocsWritten(long n) {
        docsWritten.addAndGet(n);
    }

    void slices(int slices) {
        this.slices = slices;
    }

    @Override
    public DuplicatesStatus getStatus() {
        return new DuplicatesStatus(phase, slices, docsRead.get(), docsTotal, groupsFound, docsWritten.get(), docsToWrite);
    }
}
