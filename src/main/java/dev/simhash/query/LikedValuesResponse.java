package dev.simhash.query;

import dev.simhash.wire.WireEnvelope;

import org.elasticsearch.action.ActionResponse;
import org.elasticsearch.common.io.stream.StreamInput;
import org.elasticsearch.common.io.stream.StreamOutput;

import java.io.IOException;

/**
 * What the shard read of the liked document: its concrete index, its fingerprint and its sketch (null when the field
 * stores none), or {@link #NOT_READ} when it read nothing it can vouch for (no such document as the caller sees it, not
 * refreshed yet, no fingerprint, not a {@code simhash} field there): {@link LikeFetcher} then takes its steps, which tell
 * those cases apart in their own words.
 */
public final class LikedValuesResponse extends ActionResponse {

    static final LikedValuesResponse NOT_READ = new LikedValuesResponse(null, 0, null);

    private final String index;
    private final long hash;
    private final byte[] sketch;

    LikedValuesResponse(String index, long hash, byte[] sketch) {
        this.index = index;
        this.hash = hash;
        this.sketch = sketch;
    }

    public LikedValuesResponse(StreamInput in) throws IOException {
        StreamInput body = WireEnvelope.read(in).in();
        index = body.readOptionalString();
        hash = body.readLong();
        sketch = body.readOptionalByteArray();
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        WireEnvelope.write(out, body -> {
            body.writeOptionalString(index);
            body.writeLong(hash);
            body.writeOptionalByteArray(sketch);
        });
    }

    /** Whether the document was read; else the other fields mean nothing. */
    boolean read() {
        return index != null;
    }

    String index() {
        return index;
    }

    long hash() {
        return hash;
    }

    byte[] sketch() {
        return sketch;
    }
}
