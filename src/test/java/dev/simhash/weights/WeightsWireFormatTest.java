package dev.simhash.weights;

import dev.simhash.core.FingerprintSpec;
import dev.simhash.wire.WireTesting;

import org.elasticsearch.common.Strings;
import org.elasticsearch.common.io.stream.NamedWriteableRegistry;
import org.elasticsearch.common.io.stream.Writeable;
import org.elasticsearch.test.ESTestCase;

import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * The wire formats of the feature-weight messages: each comes back whole from its own bytes and from the bytes the next
 * plugin release would write (its envelope carrying fields this release does not know).
 */
public class WeightsWireFormatTest extends ESTestCase {

    private final NamedWriteableRegistry registry = new NamedWriteableRegistry(List.of());

    private static final WeightsTable TABLE = new WeightsTable("news-idf", FingerprintSpec.Version.V2,
        Map.of("the", 0.1, "the fox", 0.0, "狐", 4.25), 7.5, Map.of("type", "computed", "index", "news", "documents", 3), 1234);

    /** Both copies carry the same fields as the original: they write the same bytes. */
    private <T extends Writeable> List<T> copies(T original, Writeable.Reader<T> reader) throws IOException {
        T copy = WireTesting.roundTrip(original, registry, reader);
        T fromNext = WireTesting.fromNextRelease(original, registry, reader);
        assertEquals(WireTesting.write(original), WireTesting.write(copy));
        assertEquals(WireTesting.write(original), WireTesting.write(fromNext));
        return List.of(copy, fromNext);
    }

    public void testPutRequestUploadAndCompute() throws IOException {
        PutWeightsRequest.Body upload = new PutWeightsRequest.Body();
        upload.version = "v2";
        upload.features = Map.of("fox", 2.5);
        upload.defaultWeight = 3.0;
        PutWeightsRequest put = new PutWeightsRequest("up", upload);
        for (PutWeightsRequest copy : copies(put, PutWeightsRequest::new)) {
            assertEquals("up", copy.name());
            assertEquals(put.getDescription(), copy.getDescription());
        }
        PutWeightsRequest.Body compute = new PutWeightsRequest.Body();
        compute.version = "v2";
        compute.index = "news";
        compute.field = "body";
        compute.sampleSize = 500;
        compute.minDf = 3;
        compute.analyzer = "standard";
        compute.shingleSize = 2;
        compute.seed = -9;
        PutWeightsRequest computed = new PutWeightsRequest("idf", compute).shouldStoreResult(true);
        for (PutWeightsRequest copy : copies(computed, PutWeightsRequest::new)) {
            assertEquals("idf", copy.name());
            assertTrue(copy.getShouldStoreResult());
            assertEquals(computed.getDescription(), copy.getDescription());
        }
    }

    public void testPutResponse() throws IOException {
        PutWeightsResponse r = new PutWeightsResponse(TABLE, false);
        for (PutWeightsResponse copy : copies(r, PutWeightsResponse::new)) {
            assertFalse(copy.isAcknowledged());
            assertEquals(Strings.toString(r), Strings.toString(copy));
        }
    }

    public void testGetRequestAndResponse() throws IOException {
        copies(new GetWeightsRequest("news-idf", 20), GetWeightsRequest::new);
        copies(new GetWeightsRequest(null, 0), GetWeightsRequest::new);
        GetWeightsResponse r = new GetWeightsResponse(null, List.of(TABLE, new WeightsTable("v1-up",
            FingerprintSpec.Version.V1, Map.of(), 1.0, Map.of("type", "uploaded"), 99)), 2);
        for (GetWeightsResponse copy : copies(r, GetWeightsResponse::new)) {
            assertEquals(Strings.toString(r), Strings.toString(copy));
        }
    }

    public void testDeleteStoreAndFeatures() throws IOException {
        for (DeleteWeightsRequest copy : copies(new DeleteWeightsRequest("news-idf"), DeleteWeightsRequest::new)) {
            assertEquals("news-idf", copy.name());
        }
        for (StoreWeightsRequest copy : copies(new StoreWeightsRequest(TABLE), StoreWeightsRequest::new)) {
            assertEquals(TABLE, copy.table());
        }
        WeightsFeaturesRequest features = new WeightsFeaturesRequest("news-idf", new String[] { "news", "blogs" });
        for (WeightsFeaturesRequest copy : copies(features, WeightsFeaturesRequest::new)) {
            assertEquals("news-idf", copy.name());
            assertArrayEquals(new String[] { "news", "blogs" }, copy.indices());
        }
        for (WeightsFeaturesResponse copy : copies(new WeightsFeaturesResponse(TABLE), WeightsFeaturesResponse::new)) {
            assertEquals(TABLE, copy.table());
        }
    }

    public void testMetadataAndStatus() throws IOException {
        WeightsMetadata m = WeightsMetadata.EMPTY.with(TABLE);
        for (WeightsMetadata copy : copies(m, WeightsMetadata::new)) {
            assertEquals(m, copy);
        }
        WeightsStatus status = new WeightsStatus("read", 10, 500, 77);
        for (WeightsStatus copy : copies(status, WeightsStatus::new)) {
            assertEquals(status, copy);
        }
    }
}
