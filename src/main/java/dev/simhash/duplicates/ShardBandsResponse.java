package dev.simhash.duplicates;

import dev.simhash.core.MinHashSketch;
import dev.simhash.wire.WireEnvelope;

import org.elasticsearch.action.ActionResponse;
import org.elasticsearch.common.io.stream.StreamInput;
import org.elasticsearch.common.io.stream.StreamOutput;

import java.io.IOException;

/**
 * One shard's answer to a {@link ShardBandsRequest}: the documents it covers ({@link #docs}, the caller's visible documents
 * with a fingerprint), and by mode the band values (ascending, distinct) or the candidate documents: their {@code _id},
 * {@code _routing} (null for none), fingerprint and sketch ({@value MinHashSketch#BYTES} bytes each, in one array).
 */
public final class ShardBandsResponse extends ActionResponse {

    private final long docs;
    private final long[] values;
    private final String[] ids;
    private final String[] routings;
    private final long[] fingerprints;
    private final byte[] sketches;

    ShardBandsResponse(long docs, long[] values, String[] ids, String[] routings, long[] fingerprints, byte[] sketches) {
        this.docs = docs;
        this.values = values;
        this.ids = ids;
        this.routings = routings;
        this.fingerprints = fingerprints;
        this.sketches = sketches;
    }

    public ShardBandsResponse(StreamInput in) throws IOException {
        StreamInput body = WireEnvelope.read(in).in();
        docs = body.readVLong();
        values = readAscending(body);
        int n = body.readVInt();
        ids = new String[n];
        routings = new String[n];
        fingerprints = new long[n];
        for (int i = 0; i < n; i++) {
            ids[i] = body.readString();
            routings[i] = body.readOptionalString();
            fingerprints[i] = body.readLong();
        }
        sketches = body.readByteArray();
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        WireEnvelope.write(out, body -> {
            body.writeVLong(docs);
            writeAscending(body, values);
            body.writeVInt(ids.length);
            for (int i = 0; i < ids.length; i++) {
                body.writeString(ids[i]);
                body.writeOptionalString(routings[i]);
                body.writeLong(fingerprints[i]);
            }
            body.writeByteArray(sketches);
        });
    }

    /** Non-negative values in ascending order, as their gaps (a sorted set of band values: about 3 bytes each). */
    static void writeAscending(StreamOutput out, long[] ascending) throws IOException {
        out.writeVInt(ascending.length);
        long previous = 0;
        for (long v : ascending) {
            out.writeVLong(v - previous);
            previous = v;
        }
    }

    static long[] readAscending(StreamInput in) throws IOException {
        long[] values = new long[in.readVInt()];
        long previous = 0;
        for (int i = 0; i < values.length; i++) {
            previous += in.readVLong();
            values[i] = previous;
        }
        return values;
    }

    long docs() {
        return docs;
    }

    long[] values() {
        return values;
    }

    int candidates() {
        return ids.length;
    }

    String id(int i) {
        return ids[i];
    }

    String routing(int i) {
        return routings[i];
    }

    long fingerprint(int i) {
        return fingerprints[i];
    }

    byte[] sketches() {
        return sketches;
    }

    /** The heap this response holds, roughly: what the report charges while it keeps it. */
    long ramBytes() {
        long bytes = 64 + (long) values.length * Long.BYTES + sketches.length + (long) fingerprints.length * Long.BYTES;
        for (int i = 0; i < ids.length; i++) {
            bytes += 56 + ids[i].length() + (routings[i] == null ? 8 : 48 + routings[i].length());
        }
        return bytes;
    }
}
