package dev.simhash.query;

import dev.simhash.core.MinHashSketch;

import org.elasticsearch.common.io.stream.BytesStreamOutput;
import org.elasticsearch.test.ESTestCase;

import java.io.IOException;

/** The liked document's shard-level messages read back as written: with and without routing, sketch, or anything read. */
public class LikedValuesWireTest extends ESTestCase {

    public void testRequestRoundTrip() throws IOException {
        for (int round = 0; round < 20; round++) {
            LikedValuesRequest r = new LikedValuesRequest("idx-" + randomAlphaOfLength(3), randomUnicodeOfLengthBetween(1, 40),
                randomBoolean() ? null : randomAlphaOfLength(5), "body.simhash");
            BytesStreamOutput out = new BytesStreamOutput();
            r.writeTo(out);
            LikedValuesRequest back = new LikedValuesRequest(out.bytes().streamInput());
            assertEquals(r.index(), back.index());
            assertEquals(r.id(), back.id());
            assertEquals(r.routing(), back.routing());
            assertEquals(r.field(), back.field());
        }
    }

    public void testResponseRoundTrip() throws IOException {
        for (int round = 0; round < 20; round++) {
            byte[] sketch = randomBoolean() ? null : randomByteArrayOfLength(MinHashSketch.BYTES);
            LikedValuesResponse r = round == 0 ? LikedValuesResponse.NOT_READ
                : new LikedValuesResponse("idx-" + randomAlphaOfLength(3), randomLong(), sketch);
            BytesStreamOutput out = new BytesStreamOutput();
            r.writeTo(out);
            LikedValuesResponse back = new LikedValuesResponse(out.bytes().streamInput());
            assertEquals(r.read(), back.read());
            assertEquals(r.index(), back.index());
            assertEquals(r.hash(), back.hash());
            assertArrayEquals(r.sketch(), back.sketch());
        }
        assertFalse(LikedValuesResponse.NOT_READ.read());
    }
}
