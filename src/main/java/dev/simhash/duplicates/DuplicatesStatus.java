package dev.simhash.duplicates;

import dev.simhash.wire.WireEnvelope;

import org.elasticsearch.common.io.stream.StreamInput;
import org.elasticsearch.common.io.stream.StreamOutput;
import org.elasticsearch.tasks.Task;
import org.elasticsearch.xcontent.XContentBuilder;

import java.io.IOException;
import java.util.Locale;

/**
 * Progress of a near-duplicate report as {@code _tasks} shows it: the phase ({@code read}, {@code group},
 * {@code write}), documents read of the total, groups found so far, and documents written of those to write.
 *
 * @param docsTotal  matching documents with a fingerprint, or -1 while not yet counted
 * @param docsToWrite documents the write phase will visit (0 without {@code write_group_id})
 */
public record DuplicatesStatus(Phase phase, int slices, long docsRead, long docsTotal, long groupsFound, long docsWritten,
                               long docsToWrite) implements Task.Status {

    /** The name the status is registered under (a named writeable). */
    public static final String NAME = "simhash_duplicates";

    /** The phases of a report, in order. */
    public enum Phase {
        READ, GROUP, MEMBERS, WRITE;

        String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public DuplicatesStatus(StreamInput in) throws IOException {
        this(WireEnvelope.read(in).in(), null);
    }

    // the record's canonical constructor must come first, so the body is read in a constructor of its own
    private DuplicatesStatus(StreamInput body, Void unused) throws IOException {
        this(body.readEnum(Phase.class), body.readVInt(), body.readVLong(), body.readZLong(), body.readVLong(), body.readVLong(),
            body.readVLong());
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        WireEnvelope.write(out, body -> {
            body.writeEnum(phase);
            body.writeVInt(slices);
            body.writeVLong(docsRead);
            body.writeZLong(docsTotal);
            body.writeVLong(groupsFound);
            body.writeVLong(docsWritten);
            body.writeVLong(docsToWrite);
        });
    }

    @Override
    public String getWriteableName() {
        return NAME;
    }

    @Override
    public XContentBuilder toXContent(XContentBuilder builder, Params params) throws IOException {
        builder.startObject();
        builder.field("phase", phase.label());
        builder.field("slices", slices);
        builder.field("docs_read", docsRead);
        if (docsTotal >= 0) {
            builder.field("docs_total", docsTotal);
        }
        builder.field("groups_found", groupsFound);
        builder.field("docs_written", docsWritten);
        builder.field("docs_to_write", docsToWrite);
        return builder.endObject();
    }
}
