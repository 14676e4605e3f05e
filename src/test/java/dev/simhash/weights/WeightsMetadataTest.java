package dev.simhash.weights;

import dev.simhash.core.FingerprintSpec;

import org.elasticsearch.common.bytes.BytesReference;
import org.elasticsearch.common.io.stream.BytesStreamOutput;
import org.elasticsearch.common.io.stream.StreamInput;
import org.elasticsearch.common.xcontent.ChunkedToXContent;
import org.elasticsearch.test.ESTestCase;
import org.elasticsearch.xcontent.ToXContent;
import org.elasticsearch.xcontent.XContentBuilder;
import org.elasticsearch.xcontent.XContentParser;
import org.elasticsearch.xcontent.XContentParserConfiguration;
import org.elasticsearch.xcontent.json.JsonXContent;

import java.util.Iterator;
import java.util.Map;

/** The cluster-state custom: the wire form and the persisted (gateway) form give the same tables back. */
public class WeightsMetadataTest extends ESTestCase {

    private static WeightsMetadata sample() {
        return WeightsMetadata.EMPTY
            .with(new WeightsTable("news-idf", FingerprintSpec.Version.V2, Map.of("the", 0.1, "the fox", 0.0, "狐", 4.25), 7.5,
                Map.of("type", "computed", "index", "news", "documents", 3), 1234))
            .with(new WeightsTable("v1-up", FingerprintSpec.Version.V1, Map.of(), 1.0, Map.of("type", "uploaded"), 99));
    }

    public void testWireRoundTrip() throws Exception {
        WeightsMetadata m = sample();
        BytesStreamOutput out = new BytesStreamOutput();
        m.writeTo(out);
        try (StreamInput in = out.bytes().streamInput()) {
            WeightsMetadata back = new WeightsMetadata(in);
            assertEquals(m, back);
            assertEquals(4.25, back.tables().get("news-idf").applyAsDouble("狐"), 0);
            assertEquals(7.5, back.tables().get("news-idf").applyAsDouble("dog"), 0);
        }
    }

    public void testPersistedFormRoundTrip() throws Exception {
        WeightsMetadata m = sample();
        XContentBuilder b = JsonXContent.contentBuilder();
        b.startObject();
        Iterator<? extends ToXContent> chunks = m.toXContentChunked(ToXContent.EMPTY_PARAMS);
        while (chunks.hasNext()) {
            chunks.next().toXContent(b, ToXContent.EMPTY_PARAMS);
        }
        b.endObject();
        String json = BytesReference.bytes(b).utf8ToString();
        assertTrue(json, json.contains("\"news-idf\""));
        try (XContentParser p = JsonXContent.jsonXContent.createParser(XContentParserConfiguration.EMPTY, json)) {
            assertEquals(m, WeightsMetadata.fromXContent(p));
        }
        assertEquals(3L, m.totalFeatures());
        assertEquals(WeightsMetadata.EMPTY, m.without("news-idf").without("v1-up"));
        assertNotNull(ChunkedToXContent.class);
    }

    /** PUT's response carries the store's acknowledgement (false after an ack timeout), over the wire and in its JSON. */
    public void testPutResponseCarriesTheAcknowledgement() throws Exception {
        WeightsTable table = sample().tables().get("news-idf");
        for (boolean acked : new boolean[] { true, false }) {
            BytesStreamOutput out = new BytesStreamOutput();
            new PutWeightsResponse(table, acked).writeTo(out);
            try (StreamInput in = out.bytes().streamInput()) {
                PutWeightsResponse back = new PutWeightsResponse(in);
                assertEquals(acked, back.isAcknowledged());
                XContentBuilder b = JsonXContent.contentBuilder();
                back.toXContent(b, ToXContent.EMPTY_PARAMS);
                String json = BytesReference.bytes(b).utf8ToString();
                assertTrue(json, json.startsWith("{\"acknowledged\":" + acked + ",\"name\":\"news-idf\""));
                assertEquals(0, in.available());
            }
        }
    }
}
