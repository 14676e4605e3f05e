package dev.simhash.duplicates;

import dev.simhash.core.MinHashSketch;
import dev.simhash.core.NearDuplicateComponents;
import dev.simhash.wire.WireEnvelope;

import org.elasticsearch.action.ActionResponse;
import org.elasticsearch.common.io.stream.StreamInput;
import org.elasticsearch.common.io.stream.StreamOutput;

import java.io.IOException;

/**
 * One shard's answer to a {@link ShardBandsRequest}: the documents it covers ({@link #docs}, the caller's visible documents
 * with a fingerprint), and by mode the band values (ascending, distinct), the candidate documents (their {@code _id},
 * {@code _routing} (null for none), fingerprint and sketch, {@value MinHashSketch#BYTES} bytes each, in one array), or a
 * page of the shard's groups: their members (id, routing, fingerprint, no sketch), each with its group and its similarity
 * to the group's representative, per group its id and representative, and the shard's totals ({@link ShardBandScan.Groups}).
 */
public final class ShardBandsResponse extends ActionResponse {

    private final long docs;
    private final long[] values;
    private final int candidates;
    private final String[] ids;
    private final String[] routings;
    private final long[] fingerprints;
    private final byte[] sketches;
    private final int[] groupOf;
    private final double[] similarity;
    private final long[] groupIds;
    private final int[] representatives;
    private final long comparisons;
    private final long hotBuckets;
    private final boolean grouped;
    private final int groupsTotal;
    private final long duplicatesTotal;

    /** The first {@code candidates} entries of the arrays are the candidates (the arrays may be longer). */
    ShardBandsResponse(long docs, long[] values, int candidates, String[] ids, String[] routings, long[] fingerprints,
                       byte[] sketches) {
        this.docs = docs;
        this.values = values;
        this.candidates = candidates;
        this.ids = ids;
        this.routings = routings;
        this.fingerprints = fingerprints;
        this.sketches = sketches;
        this.groupOf = new int[0];
        this.similarity = new double[0];
        this.groupIds = new long[0];
        this.representatives = new int[0];
        this.comparisons = 0;
        this.hotBuckets = 0;
        this.grouped = false;
        this.groupsTotal = 0;
        this.duplicatesTotal = 0;
    }

    /** The answer of {@link ShardBandsRequest.Mode#GROUPS}. */
    ShardBandsResponse(long docs, ShardBandScan.Groups g) {
        this.docs = docs;
        this.values = new long[0];
        this.candidates = g.size();
        this.ids = g.ids();
        this.routings = g.routings();
        this.fingerprints = g.fingerprints();
        this.sketches = new byte[0];
        this.groupOf = g.groupOf();
        this.similarity = g.similarity();
        this.groupIds = g.groupIds();
        this.representatives = g.representatives();
        this.comparisons = g.comparisons();
        this.hotBuckets = g.hotBuckets();
        this.grouped = true;
        this.groupsTotal = g.groupsTotal();
        this.duplicatesTotal = g.duplicatesTotal();
    }

    public ShardBandsResponse(StreamInput in) throws IOException {
        StreamInput body = WireEnvelope.read(in).in();
        docs = body.readVLong();
        values = readAscending(body);
        int n = body.readVInt();
        candidates = n;
        ids = new String[n];
        routings = new String[n];
        fingerprints = new long[n];
        for (int i = 0; i < n; i++) {
            ids[i] = body.readString();
            routings[i] = body.readOptionalString();
            fingerprints[i] = body.readLong();
        }
        sketches = body.readByteArray();
        groupOf = body.readVIntArray();
        similarity = body.readDoubleArray();
        groupIds = body.readLongArray();
        representatives = body.readVIntArray();
        comparisons = body.readVLong();
        hotBuckets = body.readVLong();
        grouped = body.readBoolean();
        groupsTotal = body.readVInt();
        duplicatesTotal = body.readVLong();
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        WireEnvelope.write(out, body -> {
            body.writeVLong(docs);
            writeAscending(body, values);
            body.writeVInt(candidates);
            for (int i = 0; i < candidates; i++) {
                body.writeString(ids[i]);
                body.writeOptionalString(routings[i]);
                body.writeLong(fingerprints[i]);
            }
            int sketchBytes = grouped ? 0 : candidates * MinHashSketch.BYTES; // groups found on the shard come without sketches
            body.writeVInt(sketchBytes);
            body.writeBytes(sketches, 0, sketchBytes);
            body.writeVIntArray(groupOf);
            body.writeDoubleArray(similarity);
            body.writeLongArray(groupIds);
            body.writeVIntArray(representatives);
            body.writeVLong(comparisons);
            body.writeVLong(hotBuckets);
            body.writeBoolean(grouped);
            body.writeVInt(groupsTotal);
            body.writeVLong(duplicatesTotal);
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
        return candidates;
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

    /** Whether this is the answer of {@link ShardBandsRequest.Mode#GROUPS}: members of groups, found on the shard. */
    boolean grouped() {
        return grouped;
    }

    /** The groups of two or more documents the shard found, on the page or not (groups found on the shard). */
    int groupsTotal() {
        return groupsTotal;
    }

    /** The documents in those groups (groups found on the shard). */
    long duplicatesTotal() {
        return duplicatesTotal;
    }

    /**
     * The page of the shard's groups as components over their members (member i is document i): their ids, sizes and
     * representatives as the shard found them.
     */
    NearDuplicateComponents components() {
        int[] size = new int[groupIds.length];
        for (int g : groupOf) {
            size[g]++;
        }
        return new NearDuplicateComponents(groupOf.clone(), size, groupIds.clone(), representatives.clone(), comparisons, hotBuckets);
    }

    /** Member i's similarity to its group's representative (groups found on the shard). */
    double similarity(int i) {
        return similarity[i];
    }

    /** The candidates' sketches, candidate i's at {@code i * MinHashSketch.BYTES}. */
    byte[] sketches() {
        return sketches;
    }

}
