package dev.simhash.fold;

import dev.simhash.request.FingerprintMappings;
import dev.simhash.threshold.Verification;
import dev.simhash.wire.WireTesting;

import org.apache.lucene.search.TotalHits;
import org.elasticsearch.action.search.SearchRequest;
import org.elasticsearch.action.search.SearchResponse;
import org.elasticsearch.action.search.ShardSearchFailure;
import org.elasticsearch.common.Strings;
import org.elasticsearch.common.document.DocumentField;
import org.elasticsearch.common.io.stream.NamedWriteableRegistry;
import org.elasticsearch.common.settings.Settings;
import org.elasticsearch.index.shard.ShardId;
import org.elasticsearch.search.SearchHit;
import org.elasticsearch.search.SearchHits;
import org.elasticsearch.search.SearchModule;
import org.elasticsearch.search.SearchShardTarget;
import org.elasticsearch.search.builder.SearchSourceBuilder;
import org.elasticsearch.test.ESTestCase;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The fold of ranked hits into a page of representatives, its JSON (shaped like a search response) and its wire format. */
public class FoldResponseTest extends ESTestCase {

    private static final long A = 0x00ff00ff00ff00ffL;

    private static SearchHit hit(int doc, String id, Long hash, float score) {
        SearchHit h = SearchHit.unpooled(doc, id);
        h.score(score);
        h.shard(new SearchShardTarget("node", new ShardId("news", "_na_", 0), null));
        if (hash != null) {
            h.addDocumentFields(Map.of("simhash.hash", new DocumentField("simhash.hash", List.of(hash))), Map.of());
        }
        return h;
    }

    private SearchHits pending;

    private SearchHits searchHits(SearchHit[] hits, TotalHits total, float maxScore) {
        pending = new SearchHits(hits, total, maxScore);
        return pending;
    }

    /** The search response took its own reference to the hits (on every supported line): the test's one is released. */
    private void releaseHits() {
        pending.decRef();
    }

    public void testFoldsByRankAndRendersThePage() throws IOException {
        // a; b without fingerprint; c 1 bit from a; d far from everything; e 2 bits from a
        SearchHit[] hits = { hit(0, "a", A, 4f), hit(1, "b", null, 3f), hit(2, "c", A ^ 1, 2f), hit(3, "d", ~A, 1f),
            hit(4, "e", A ^ 3, 0.5f) };
        SearchResponse search = new SearchResponse(searchHits(hits, new TotalHits(5, TotalHits.Relation.EQUAL_TO), 4f), null,
            null, false, null, null, 1, null, 1, 1, 0, 7, ShardSearchFailure.EMPTY_ARRAY, SearchResponse.Clusters.EMPTY);
        FoldRequest request = new FoldRequest(new SearchRequest("news").source(new SearchSourceBuilder().from(1).size(2)),
            new FoldParams("simhash", 3, true, null, false, 100, false, 1));
        FoldResponse folded = TransportFoldAction.fold(search, request, request.fold(),
            FingerprintMappings.Fingerprints.of("simhash", false, Set.of()), false, false, null, null, System.nanoTime());
        search.decRef();
        releaseHits();
        try {
            assertEquals(3, folded.groups());
            String json = Strings.toString(folded).replaceFirst("\"took\":\\d+", "\"took\":0");
            // page 2 of the folded list [a (c, e), b, d]: b and d; the fingerprint read for folding is not shown in fields
            assertEquals("{\"took\":0,\"timed_out\":false,\"_shards\":{\"total\":1,\"successful\":1,\"skipped\":0,\"failed\":0},"
                + "\"hits\":{\"total\":{\"value\":5,\"relation\":\"eq\"},\"max_score\":4.0,\"hits\":["
                + "{\"_index\":\"news\",\"_id\":\"b\",\"_score\":3.0,\"_simhash\":{\"folded\":0,\"members\":[]}},"
                + "{\"_index\":\"news\",\"_id\":\"d\",\"_score\":1.0,\"_simhash\":{\"hash\":\"ff00ff00ff00ff00\",\"folded\":0,\"members\":[]}}"
                + "]},\"simhash_fold\":{\"field\":\"simhash\",\"max_distance\":3,\"window\":100,\"considered\":5,\"groups\":3}}", json);

            assertCopyRendersAs(folded, json);
            // as the next plugin release sends it (fields appended to its envelope)
            FoldResponse next = WireTesting.fromNextRelease(folded, new NamedWriteableRegistry(new SearchModule(Settings.EMPTY,
                List.of()).getNamedWriteables()), FoldResponse::new);
            try {
                assertEquals(json, Strings.toString(next).replaceFirst("\"took\":\\d+", "\"took\":0"));
            } finally {
                next.decRef();
            }
        } finally {
            folded.decRef();
        }
        assertFalse("released with the fold", search.hasReferences());
    }

    public void testListsMembersInRankOrderUpToTheLimit() throws IOException {
        SearchHit[] hits = { hit(0, "a", A, 4f), hit(1, "c", A ^ 1, 2f), hit(2, "e", A ^ 3, 0.5f) };
        SearchResponse search = new SearchResponse(searchHits(hits, null, Float.NaN), null, null, true, true, null, 1, null, 2,
            2, 0, 7, ShardSearchFailure.EMPTY_ARRAY, SearchResponse.Clusters.EMPTY);
        FoldRequest request = new FoldRequest(new SearchRequest("news"), new FoldParams("simhash", 3, true, null, false, 100, false, 1));
        FoldResponse folded = TransportFoldAction.fold(search, request, request.fold(),
            FingerprintMappings.Fingerprints.of("simhash", false, Set.of()), false, false, null, null, System.nanoTime());
        search.decRef();
        releaseHits();
        try {
            assertEquals("{\"took\":0,\"timed_out\":true,\"terminated_early\":true,"
                + "\"_shards\":{\"total\":2,\"successful\":2,\"skipped\":0,\"failed\":0},\"hits\":{\"max_score\":null,\"hits\":["
                + "{\"_index\":\"news\",\"_id\":\"a\",\"_score\":4.0,\"_simhash\":{\"hash\":\"00ff00ff00ff00ff\",\"folded\":2,\"members\":["
                + "{\"_index\":\"news\",\"_id\":\"c\",\"_score\":2.0,\"distance\":1}]}}"
                + "]},\"simhash_fold\":{\"field\":\"simhash\",\"max_distance\":3,\"window\":100,\"considered\":3,\"groups\":1}}",
                Strings.toString(folded).replaceFirst("\"took\":\\d+", "\"took\":0"));
        } finally {
            folded.decRef();
        }
    }

    /** A sketch of 512 one-bit bins whose first {@code flipped} bits are set: {@code k} differing bins estimate 1 - 2k/512. */
    static byte[] sketch(int from, int to) {
        byte[] b = new byte[dev.simhash.core.MinHashSketch.BYTES];
        for (int i = from; i < to; i++) {
            b[i >>> 3] |= (byte) (1 << (i & 7));
        }
        return b;
    }

    /** Folds the hits (one shard's response) with their sketches at {@code threshold}, window 100, up to 5 members listed. */
    private FoldResponse foldVerified(SearchHit[] hits, byte[][] sketches, double threshold) {
        SearchResponse search = new SearchResponse(searchHits(hits, null, Float.NaN), null, null, false, null, null, 1, null, 1,
            1, 0, 7, ShardSearchFailure.EMPTY_ARRAY, SearchResponse.Clusters.EMPTY);
        FoldParams params = new FoldParams("simhash", 3, true, null, false, 100, false, 5).withVerification(Verification.of(threshold), true);
        FoldRequest request = new FoldRequest(new SearchRequest("news"), params);
        FoldResponse folded = TransportFoldAction.fold(search, request, request.fold(),
            FingerprintMappings.Fingerprints.of("simhash", false, Set.of()), false, false, null, sketches, System.nanoTime());
        search.decRef();
        releaseHits();
        return folded;
    }

    public void testWithSketchesFoldsOnlyVerifiedPairsAndShowsTheirSimilarity() throws IOException {
        // a; c 1 bit from a but a different text (its sketch far from a's); e 2 bits from a, 40 bins of 512 differ (0.84375)
        SearchHit[] hits = { hit(0, "a", A, 4f), hit(1, "c", A ^ 1, 2f), hit(2, "e", A ^ 3, 0.5f) };
        byte[][] sketches = { sketch(0, 0), sketch(0, 256), sketch(0, 40) };
        FoldResponse folded = foldVerified(hits, sketches, 0.8);
        try {
            assertEquals("a and c stay apart: candidates (their sketches share bands), below the threshold", 2, folded.groups());
            String json = Strings.toString(folded).replaceFirst("\"took\":\\d+", "\"took\":0");
            assertEquals("{\"took\":0,\"timed_out\":false,\"_shards\":{\"total\":1,\"successful\":1,\"skipped\":0,\"failed\":0},"
                + "\"hits\":{\"max_score\":null,\"hits\":["
                + "{\"_index\":\"news\",\"_id\":\"a\",\"_score\":4.0,\"_simhash\":{\"hash\":\"00ff00ff00ff00ff\",\"folded\":1,\"members\":["
                + "{\"_index\":\"news\",\"_id\":\"e\",\"_score\":0.5,\"distance\":2,\"similarity\":0.84375}]}},"
                + "{\"_index\":\"news\",\"_id\":\"c\",\"_score\":2.0,\"_simhash\":{\"hash\":\"00ff00ff00ff00fe\",\"folded\":0,\"members\":[]}}"
                + "]},\"simhash_fold\":{\"field\":\"simhash\",\"min_similarity\":0.8,\"candidates\":\"bands\",\"window\":100,\"considered\":3,\"groups\":2}}", json);
            assertCopyRendersAs(folded, json);
        } finally {
            folded.decRef();
        }
    }

    public void testFromTheBandsRangeOnCandidatesShareABandAtAnyDistanceAndBelowItAreWithinTheRadius() throws IOException {
        // f is a's text (equal sketch) with a fingerprint 64 bits away; g is 1 bit from a and shares no band value with it
        byte[] g = sketch(0, 0);
        for (int at = 64; at < g.length; at++) {
            g[at] = (byte) 0x5a;
        }
        for (double threshold : new double[] { 0.8, 0.7 }) {
            SearchHit[] hits = { hit(0, "a", A, 4f), hit(1, "f", ~A, 2f), hit(2, "g", A ^ 1, 1f) };
            byte[][] sketches = { sketch(0, 0), sketch(0, 0), g };
            FoldResponse folded = foldVerified(hits, sketches, threshold);
            try {
                String json = Strings.toString(folded);
                if (threshold == 0.8) {
                    assertEquals("f folds under a (a shared band, 64 bits apart); g does not (no shared band): " + json, 2, folded.groups());
                    assertTrue(json, json.contains("\"members\":[{\"_index\":\"news\",\"_id\":\"f\""));
                    assertTrue(json, json.contains("\"candidates\":\"bands\""));
                } else {
                    assertEquals("f stays apart (beyond the radius of 0.7); g folds under a: " + json, 2, folded.groups());
                    assertTrue(json, json.contains("\"members\":[{\"_index\":\"news\",\"_id\":\"g\""));
                    assertTrue(json, json.contains("\"candidates\":\"radius\""));
                }
            } finally {
                folded.decRef();
            }
        }
    }

    /** A copy over the wire renders the same JSON (took aside: it is measured). */
    private static void assertCopyRendersAs(FoldResponse folded, String json) throws IOException {
        FoldResponse copy = copyWriteable(folded, new NamedWriteableRegistry(new SearchModule(Settings.EMPTY, List.of())
            .getNamedWriteables()), FoldResponse::new);
        try {
            assertEquals(json, Strings.toString(copy).replaceFirst("\"took\":\\d+", "\"took\":0"));
        } finally {
            copy.decRef();
        }
    }
}
