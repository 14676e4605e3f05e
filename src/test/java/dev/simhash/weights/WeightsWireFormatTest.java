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
        PutWeightsAction.Body upload = new PutWeightsAction.Body();
        upload.version = "v2";
        upload.features = Map.of("fox", 2.5);
        upload.defaultWeight = 3.0;
        PutWeightsAction.Request put = new PutWeightsAction.Request("up", upload);
        for (PutWeightsAction.Request copy : copies(put, PutWeightsAction.Request::new)) {
            assertEquals("up", copy.name());
            assertEquals(put.getDescription(), copy.getDescription());
        }
        PutWeightsAction.Body compute = new PutWeightsAction.Body();
        compute.version = "v2";
        compute.index = "news";
        compute.field = "body";
        compute.sampleSize = 500;
        compute.minDf = 3;
        compute.analyzer = "standard";
        compute.shingleSize = 2;
        compute.seed = -9;
        PutWeightsAction.Request computed = new PutWeightsAction.Request("idf", compute).shouldStoreResult(true);
        for (PutWeightsAction.Request copy : copies(computed, PutWeightsAction.Request::new)) {
            assertEquals("idf", copy.name());
            assertTrue(copy.getShouldStoreResult());
            assertEquals(computed.getDescription(), copy.getDescription());
        }
    }

    public void testPutResponse() throws IOException {
        PutWeightsAction.Response r = new PutWeightsAction.Response(TABLE, false);
        for (PutWeightsAction.Response copy : copies(r, PutWeightsAction.Response::new)) {
            assertFalse(copy.isAcknowledged());
            assertEquals(Strings.toString(r), Strings.toString(copy));
        }
    }

    public void testGetRequestAndResponse() throws IOException {
        copies(new GetWeightsAction.Request("news-idf", 20), GetWeightsAction.Request::new);
        copies(new GetWeightsAction.Request(null, 0), GetWeightsAction.Request::new);
        GetWeightsAction.Response r = new GetWeightsAction.Response(null, List.of(TABLE, new WeightsTable("v1-up",
            FingerprintSpec.Version.V1, Map.of(), 1.0, Map.of("type", "uploaded"), 99)), 2);
        for (GetWeightsAction.Response copy : copies(r, GetWeightsAction.Response::new)) {
            assertEquals(Strings.toString(r), Strings.toString(copy));
        }
    }

    public void testDeleteStoreAndFeatures() throws IOException {
        for (DeleteWeightsAction.Request copy : copies(new DeleteWeightsAction.Request("news-idf"), DeleteWeightsAction.Request::new)) {
            assertEquals("news-idf", copy.name());
        }
        for (StoreWeightsAction.Request copy : copies(new StoreWeightsAction.Request(TABLE), StoreWeightsAction.Request::new)) {
            assertEquals(TABLE, copy.table());
        }
        WeightsFeaturesAction.Request features = new WeightsFeaturesAction.Request("news-idf", new String[] { "news", "blogs" });
        for (WeightsFeaturesAction.Request copy : copies(features, WeightsFeaturesAction.Request::new)) {
            assertEquals("news-idf", copy.name());
            assertArrayEquals(new String[] { "news", "blogs" }, copy.indices());
        }
        for (WeightsFeaturesAction.Response copy : copies(new WeightsFeaturesAction.Response(TABLE), WeightsFeaturesAction.Response::new)) {
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
