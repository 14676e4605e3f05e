package dev.simhash.fold;

import org.elasticsearch.action.search.SearchRequest;
import org.elasticsearch.index.query.QueryBuilders;
import org.elasticsearch.search.builder.SearchSourceBuilder;
import org.elasticsearch.test.ESTestCase;

import java.io.IOException;

import static dev.simhash.wire.WireCopies.copies;

/**
 * The wire formats of the fold messages: each comes back whole from its own bytes and from the bytes the next
 * plugin release would write (its envelope carrying fields this release does not know).
 */
public class FoldWireFormatTest extends ESTestCase {

    public void testFoldRequestAndParams() throws IOException {
        FoldParams params = new FoldParams("fp", 4, true, 0.7, true, 50, true, 2);
        for (FoldParams copy : copies(params, FoldParams::readFrom)) {
            assertEquals(params, copy);
        }
        FoldRequest r = new FoldRequest(new SearchRequest("news").source(new SearchSourceBuilder()
            .query(QueryBuilders.termQuery("tag", "a")).from(10).size(5)), params);
        for (FoldRequest copy : copies(r, FoldRequest::new)) {
            assertEquals(params, copy.fold());
            assertEquals(10, copy.from());
            assertEquals(5, copy.size());
            assertEquals(r.search().source(), copy.search().source());
            assertArrayEquals(new String[] { "news" }, copy.indices());
        }
    }
}
