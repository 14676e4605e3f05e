package dev.simhash.wire;

import org.elasticsearch.TransportVersion;
import org.elasticsearch.common.bytes.BytesArray;
import org.elasticsearch.common.bytes.BytesReference;
import org.elasticsearch.common.io.stream.BytesStreamOutput;
import org.elasticsearch.common.io.stream.NamedWriteableAwareStreamInput;
import org.elasticsearch.common.io.stream.NamedWriteableRegistry;
import org.elasticsearch.common.io.stream.StreamInput;
import org.elasticsearch.common.io.stream.Writeable;

import java.io.IOException;
import java.util.Arrays;

import static org.junit.Assert.assertEquals;

/**
 * Test support for the plugin's wire formats: a round trip that checks the reader consumes exactly the message, and the
 * same message as the next plugin release would write it (a higher wire version and a field appended to the body).
 */
public final class WireTesting {

    /** What follows each message in the stream: the reader must leave it for whatever reads next. */
    private static final int SENTINEL = 0x5EA1ED;

    private WireTesting() {}

    /** Writes {@code w} and reads it back with {@code reader}, checking the reader stops exactly at the message's end. */
    public static <T> T roundTrip(Writeable w, NamedWriteableRegistry registry, Writeable.Reader<T> reader) throws IOException {
        return read(write(w), registry, reader);
    }

    /**
     * Writes {@code w}, turns its outermost envelope into one of the next release (wire version {@link WireEnvelope#CURRENT}
     * + 1, with fields appended to the body) and reads that with this release's {@code reader}.
     */
    public static <T> T fromNextRelease(Writeable w, NamedWriteableRegistry registry, Writeable.Reader<T> reader) throws IOException {
        return read(asNextRelease(write(w)), registry, reader);
    }

    /** The bytes of {@code w}. */
    public static BytesReference write(Writeable w) throws IOException {
        try (BytesStreamOutput out = new BytesStreamOutput()) {
            out.setTransportVersion(TransportVersion.current());
            w.writeTo(out);
            return out.copyBytes();
        }
    }

    private static <T> T read(BytesReference message, NamedWriteableRegistry registry, Writeable.Reader<T> reader) throws IOException {
        try (BytesStreamOutput out = new BytesStreamOutput()) {
            out.writeBytes(BytesReference.toBytes(message));
            out.writeInt(SENTINEL);
            try (StreamInput in = new NamedWriteableAwareStreamInput(out.bytes().streamInput(), registry)) {
                in.setTransportVersion(TransportVersion.current());
                T t = reader.read(in);
                assertEquals("the reader must stop at the end of the message", SENTINEL, in.readInt());
                assertEquals(0, in.available());
                return t;
            }
        }
    }

    /**
     * The message as the next release writes it. A plugin message ends with its outermost envelope (Elasticsearch's own
     * fields come first), so the envelope is the first place where a version of this release is followed by a length that
     * reaches exactly the end of the message. The fields written in the tests' messages before it are a parent task id,
     * timeouts, a boost and a query name, which never look like that.
     */
    public static BytesReference asNextRelease(BytesReference message) throws IOException {
        byte[] bytes = BytesReference.toBytes(message);
        for (int start = 0; start < bytes.length; start++) {
            int[] version = readVInt(bytes, start);
            if (version == null || version[0] != WireEnvelope.CURRENT) {
                continue;
            }
            int[] length = readVInt(bytes, version[1]);
            if (length == null || (long) length[1] + length[0] != bytes.length) {
                continue;
            }
            try (BytesStreamOutput out = new BytesStreamOutput()) {
                out.writeBytes(bytes, 0, start);
                byte[] body = Arrays.copyOfRange(bytes, length[1], bytes.length);
                WireEnvelope.write(out, WireEnvelope.CURRENT + 1, next -> {
                    next.writeBytes(body);
                    // fields a later release appended
                    next.writeString("a field of the next release");
                    next.writeVLong(Long.MAX_VALUE);
                    next.writeBytesReference(new BytesArray(new byte[] { 1, 2, 3 }));
                });
                return out.copyBytes();
            }
        }
        throw new AssertionError("no plugin wire envelope at the end of the message");
    }

    /** The vint at {@code pos} and the position after it, or null if there is none. */
    private static int[] readVInt(byte[] bytes, int pos) {
        int value = 0;
        for (int shift = 0, i = pos; i < bytes.length && shift < 32; shift += 7, i++) {
            value |= (bytes[i] & 0x7F) << shift;
            if ((bytes[i] & 0x80) == 0) {
                return value < 0 ? null : new int[] { value, i + 1 };
            }
        }
        return null;
    }
}
