package dev.simhash.wire;

import org.elasticsearch.common.bytes.BytesReference;
import org.elasticsearch.common.io.stream.BytesStreamOutput;
import org.elasticsearch.common.io.stream.NamedWriteableAwareStreamInput;
import org.elasticsearch.common.io.stream.NamedWriteableRegistry;
import org.elasticsearch.common.io.stream.StreamInput;
import org.elasticsearch.common.io.stream.StreamOutput;
import org.elasticsearch.core.CheckedConsumer;

import java.io.IOException;

/**
 * The plugin's own versioned envelope around the fields of each of its wire messages, so that nodes running different
 * plugin releases can share a cluster: {@code [vint plugin wire version][vint length][body]}.
 *
 * <p>Fields are only ever appended to a body. An older reader reads the fields it knows and ignores the rest of the body
 * (it has the length); a newer reader asks {@link Body#has} whether the writer's version carries a field and uses a
 * default when it does not. Elasticsearch's own fields of a message (a request's parent task, a query's boost and name)
 * stay outside the envelope, where Elasticsearch's transport version governs them.
 */
public final class WireEnvelope {

    /** The wire version of plugin release 0.3.0, the first with an envelope. */
    public static final int V_0_3_0 = 1;
    /** The version this build writes; a release that appends a field adds a constant above and moves this to it. */
    public static final int CURRENT = V_0_3_0;

    private WireEnvelope() {}

    /** Writes {@code body}'s fields inside an envelope of the {@link #CURRENT} version. */
    public static void write(StreamOutput out, CheckedConsumer<StreamOutput, IOException> body) throws IOException {
        write(out, CURRENT, body);
    }

    /** As {@link #write(StreamOutput, CheckedConsumer)} with a given version: for tests that play another release. */
    static void write(StreamOutput out, int version, CheckedConsumer<StreamOutput, IOException> body) throws IOException {
        // the body is buffered because its length goes first; it is the size of the message, which is in memory anyway
        try (BytesStreamOutput buffer = new BytesStreamOutput()) {
            buffer.setTransportVersion(out.getTransportVersion());
            body.accept(buffer);
            out.writeVInt(version);
            out.writeBytesReference(buffer.bytes());
        }
    }

    /**
     * Reads an envelope: its version and a stream over its body alone, which resolves named writeables (e.g. a query
     * inside a request) with the registry of {@code in} and has its transport version. Whatever the reader leaves
     * unread in the body, fields of a newer release, is skipped: {@code in} is already past the envelope.
     */
    public static Body read(StreamInput in) throws IOException {
        int version = in.readVInt();
        if (version < V_0_3_0) {
            throw new IllegalStateException("unknown simhash plugin wire version [" + version + "]: is a node running a plugin "
                + "release before 0.3.0? Releases before 0.3.0 cannot share a cluster with later ones");
        }
        BytesReference bytes = in.readSlicedBytesReference();
        StreamInput body = bytes.streamInput();
        NamedWriteableRegistry registry = in.namedWriteableRegistry();
        if (registry != null) {
            body = new NamedWriteableAwareStreamInput(body, registry);
        }
        body.setTransportVersion(in.getTransportVersion());
        return new Body(version, body);
    }

    /**
     * An envelope as read: the writer's plugin wire version and the stream its fields are read from.
     *
     * @param version the plugin wire version of the node that wrote the message
     * @param in      the body's fields
     */
    public record Body(int version, StreamInput in) {

        /** Whether the writer's release carries the fields appended in wire version {@code since}. */
        public boolean has(int since) {
            return version >= since;
        }
    }
}
