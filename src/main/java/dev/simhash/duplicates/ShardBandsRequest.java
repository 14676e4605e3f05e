package dev.simhash.duplicates;

import dev.simhash.threshold.Verification;
import dev.simhash.wire.WireEnvelope;

import org.elasticsearch.action.ActionRequestValidationException;
import org.elasticsearch.action.ValidateActions;
import org.elasticsearch.action.support.single.shard.SingleShardRequest;
import org.elasticsearch.common.io.stream.StreamInput;
import org.elasticsearch.common.io.stream.StreamOutput;
import org.elasticsearch.tasks.CancellableTask;
import org.elasticsearch.tasks.Task;
import org.elasticsearch.tasks.TaskId;

import java.io.IOException;
import java.util.Map;

/**
 * What the report asks of one shard (of a concrete index) about the {@code simhash} field {@code field}: how many of its
 * documents the caller sees ({@link Mode#COUNT}), one hash partition of the band values they hold ({@link Mode#VALUES}),
 * the documents holding a band value that another document of the shard holds too, or that is in {@code shared}
 * ({@link Mode#CANDIDATES}), or, for a report over this one shard, a page of the groups those candidates form at the
 * threshold ({@link Mode#GROUPS}).
 */
public final class ShardBandsRequest extends SingleShardRequest<ShardBandsRequest> {

    public enum Mode {
        COUNT, VALUES, CANDIDATES, GROUPS
    }

    private final int shard;
    private final String field;
    private final Mode mode;
    private final int partition;
    private final int partitions;
    private final long[] shared;
    /** The threshold the groups are found at ({@link Mode#GROUPS} only). */
    private final Verification verification;
    /** The page of groups, in report order ({@link Mode#GROUPS} only). */
    private final int from;
    private final int size;

    private ShardBandsRequest(String index, int shard, String field, Mode mode, int partition, int partitions, long[] shared,
                              Verification verification, int from, int size) {
        super(index);
        this.verification = verification;
        this.from = from;
        this.size = size;
        this.shard = shard;
        this.field = field;
        this.mode = mode;
        this.partition = partition;
        this.partitions = partitions;
        this.shared = shared;
    }

    static ShardBandsRequest count(String index, int shard, String field) {
        return new ShardBandsRequest(index, shard, field, Mode.COUNT, 0, 1, new long[0], null, 0, 0);
    }

    /** Partition {@code partition} of {@code partitions} of the shard's band values ({@link ShardBandScan#partitionOf}). */
    static ShardBandsRequest values(String index, int shard, String field, int partition, int partitions) {
        return new ShardBandsRequest(index, shard, field, Mode.VALUES, partition, partitions, new long[0], null, 0, 0);
    }

    /** The shard's candidate documents; {@code shared}: the band values held in other shards too, ascending. */
    static ShardBandsRequest candidates(String index, int shard, String field, long[] shared) {
        return new ShardBandsRequest(index, shard, field, Mode.CANDIDATES, 0, 1, shared, null, 0, 0);
    }

    /**
     * Groups {@code [from, from + size)}, in report order, of the shard's candidates at {@code verification}: for a report over
     * this shard alone.
     */
    static ShardBandsRequest groups(String index, int shard, String field, Verification verification, int from, int size) {
        return new ShardBandsRequest(index, shard, field, Mode.GROUPS, 0, 1, new long[0], verification, from, size);
    }

    public ShardBandsRequest(StreamInput in) throws IOException {
        super(in);
        StreamInput body = WireEnvelope.read(in).in();
        shard = body.readVInt();
        field = body.readString();
        mode = body.readEnum(Mode.class);
        partition = body.readVInt();
        partitions = body.readVInt();
        shared = ShardBandsResponse.readAscending(body);
        verification = body.readBoolean() ? new Verification(body.readDouble(), body.readVInt(), body.readVInt()) : null;
        from = body.readVInt();
        size = body.readVInt();
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        super.writeTo(out);
        WireEnvelope.write(out, body -> {
            body.writeVInt(shard);
            body.writeString(field);
            body.writeEnum(mode);
            body.writeVInt(partition);
            body.writeVInt(partitions);
            ShardBandsResponse.writeAscending(body, shared);
            body.writeBoolean(verification != null);
            if (verification != null) {
                body.writeDouble(verification.minSimilarity());
                body.writeVInt(verification.radius());
                body.writeVInt(verification.minEqualBins());
            }
            body.writeVInt(from);
            body.writeVInt(size);
        });
    }

    @Override
    public ActionRequestValidationException validate() {
        ActionRequestValidationException e = validateNonNullIndex();
        if (mode == Mode.GROUPS && verification == null) {
            e = ValidateActions.addValidationError("[verification] is required to find groups", e);
        }
        return e;
    }

    @Override
    public Task createTask(long id, String type, String action, TaskId parentTaskId, Map<String, String> headers) {
        // cancelled with the report
        return new CancellableTask(id, type, action, getDescription(), parentTaskId, headers);
    }

    @Override
    public String getDescription() {
        return "simhash bands " + mode.name().toLowerCase(java.util.Locale.ROOT) + " of [" + index + "][" + shard + "] field [" + field
            + "]";
    }

    int shard() {
        return shard;
    }

    String field() {
        return field;
    }

    Mode mode() {
        return mode;
    }

    int partition() {
        return partition;
    }

    int partitions() {
        return partitions;
    }

    long[] shared() {
        return shared;
    }

    Verification verification() {
        return verification;
    }

    int from() {
        return from;
    }

    int size() {
        return size;
    }
}
