package dev.simhash.duplicates;

import dev.simhash.core.MinHashSketch;
import dev.simhash.core.NearDuplicateComponents;
import dev.simhash.threshold.Verification;

import org.elasticsearch.common.io.stream.BytesStreamOutput;
import org.elasticsearch.common.io.stream.StreamInput;
import org.elasticsearch.test.ESTestCase;

import java.io.IOException;
import java.util.Arrays;

/**
 * The report's shard-level messages read back as written: the request's mode and its shared band values (sent as gaps),
 * the response's band values and candidates (ids, routings, fingerprints, sketches).
 */
public class ShardBandsWireTest extends ESTestCase {

    private static long[] ascendingValues() {
        long[] values = new long[between(0, 300)];
        for (int i = 0; i < values.length; i++) {
            values[i] = randomLongBetween(0, (1L << 44) - 1);
        }
        Arrays.sort(values);
        return Arrays.stream(values).distinct().toArray();
    }

    public void testRequestRoundTrip() throws IOException {
        for (int round = 0; round < 50; round++) {
            long[] shared = ascendingValues();
            Verification verification = Verification.of(randomDoubleBetween(0.5, 1, true));
            ShardBandsRequest r = switch (between(0, 3)) {
                case 0 -> ShardBandsRequest.count("idx-" + randomAlphaOfLength(3), between(0, 20), "body.simhash");
                case 1 -> ShardBandsRequest.values("idx", between(0, 20), "f", between(0, 6), 7);
                case 2 -> ShardBandsRequest.groups("idx", between(0, 20), "f", verification, between(0, 1000), between(0, 1000));
                default -> ShardBandsRequest.candidates("idx", between(0, 20), "a.b", shared);
            };
            BytesStreamOutput out = new BytesStreamOutput();
            r.writeTo(out);
            ShardBandsRequest back = new ShardBandsRequest(out.bytes().streamInput());
            assertEquals(r.index(), back.index());
            assertEquals(r.shard(), back.shard());
            assertEquals(r.field(), back.field());
            assertEquals(r.mode(), back.mode());
            assertEquals(r.partition(), back.partition());
            assertEquals(r.partitions(), back.partitions());
            assertArrayEquals(r.shared(), back.shared());
            assertEquals(r.verification(), back.verification());
            assertEquals(r.from(), back.from());
            assertEquals(r.size(), back.size());
            assertEquals(r.mode() == ShardBandsRequest.Mode.GROUPS ? verification : null, back.verification());
            if (r.mode() == ShardBandsRequest.Mode.CANDIDATES) {
                assertArrayEquals(shared, back.shared());
            }
        }
    }

    public void testResponseRoundTrip() throws IOException {
        for (int round = 0; round < 50; round++) {
            int n = between(0, 20);
            String[] ids = new String[n];
            String[] routings = new String[n];
            long[] fingerprints = new long[n];
            byte[] sketches = randomByteArrayOfLength(n * MinHashSketch.BYTES);
            for (int i = 0; i < n; i++) {
                ids[i] = randomUnicodeOfLengthBetween(1, 30);
                routings[i] = randomBoolean() ? null : randomAlphaOfLength(4);
                fingerprints[i] = randomLong();
            }
            long[] values = ascendingValues();
            long docs = randomNonNegativeLong();
            // the arrays may be longer than the candidates they hold: only those are sent
            int extra = between(0, 3);
            ShardBandsResponse r = new ShardBandsResponse(docs, values, n, Arrays.copyOf(ids, n + extra), Arrays.copyOf(routings, n + extra),
                Arrays.copyOf(fingerprints, n + extra), Arrays.copyOf(sketches, (n + extra) * MinHashSketch.BYTES));
            BytesStreamOutput out = new BytesStreamOutput();
            r.writeTo(out);
            StreamInput in = out.bytes().streamInput();
            ShardBandsResponse back = new ShardBandsResponse(in);
            assertEquals(docs, back.docs());
            assertArrayEquals(values, back.values());
            assertEquals(n, back.candidates());
            for (int i = 0; i < n; i++) {
                assertEquals(ids[i], back.id(i));
                assertEquals(routings[i], back.routing(i));
                assertEquals(fingerprints[i], back.fingerprint(i));
            }
            assertArrayEquals(sketches, back.sketches());
            assertFalse(back.grouped());
        }
    }

    public void testGroupsRoundTrip() throws IOException {
        for (int round = 0; round < 50; round++) {
            int groups = between(0, 5);
            int n = groups == 0 ? 0 : between(2 * groups, 20);
            String[] ids = new String[n];
            String[] routings = new String[n];
            long[] fingerprints = new long[n];
            int[] groupOf = new int[n];
            double[] similarity = new double[n];
            for (int i = 0; i < n; i++) {
                ids[i] = randomAlphaOfLengthBetween(1, 10);
                routings[i] = randomBoolean() ? null : randomAlphaOfLength(3);
                fingerprints[i] = randomLong();
                groupOf[i] = i < 2 * groups ? i / 2 : between(0, groups - 1);
                similarity[i] = randomDouble();
            }
            long[] groupIds = new long[groups];
            int[] representatives = new int[groups];
            for (int g = 0; g < groups; g++) {
                groupIds[g] = randomLong();
                representatives[g] = 2 * g;
            }
            ShardBandScan.Groups g = new ShardBandScan.Groups(n, ids, routings, fingerprints, groupOf, similarity, groupIds, representatives,
                randomNonNegativeLong(), randomNonNegativeLong(), groups + between(0, 100), n + randomNonNegativeLong() / 2);
            ShardBandsResponse r = new ShardBandsResponse(between(n, 100), g);
            BytesStreamOutput out = new BytesStreamOutput();
            r.writeTo(out);
            ShardBandsResponse back = new ShardBandsResponse(out.bytes().streamInput());
            assertTrue(back.grouped());
            assertEquals(g.groupsTotal(), back.groupsTotal());
            assertEquals(g.duplicatesTotal(), back.duplicatesTotal());
            assertEquals(r.docs(), back.docs());
            assertEquals(n, back.candidates());
            NearDuplicateComponents c = back.components();
            assertEquals(groups, c.componentCount());
            for (int i = 0; i < n; i++) {
                assertEquals(ids[i], back.id(i));
                assertEquals(routings[i], back.routing(i));
                assertEquals(fingerprints[i], back.fingerprint(i));
                assertEquals(similarity[i], back.similarity(i), 0);
                assertEquals(groupOf[i], c.componentOf(i));
            }
            int[] sizes = new int[groups];
            for (int i = 0; i < n; i++) {
                sizes[groupOf[i]]++;
            }
            for (int k = 0; k < groups; k++) {
                assertEquals(groupIds[k], c.componentMinHash(k));
                assertEquals(representatives[k], c.representative(k));
                assertEquals(sizes[k], c.componentSize(k));
            }
        }
    }
}
