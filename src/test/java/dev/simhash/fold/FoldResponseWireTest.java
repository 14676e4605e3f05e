package dev.simhash.fold;

import org.apache.lucene.search.TotalHits;
import org.elasticsearch.action.search.SearchResponse;
import org.elasticsearch.action.search.ShardSearchFailure;
import org.elasticsearch.common.io.stream.NamedWriteableRegistry;
import org.elasticsearch.common.io.stream.Writeable;
import org.elasticsearch.common.settings.Settings;
import org.elasticsearch.index.shard.ShardId;
import org.elasticsearch.search.SearchHit;
import org.elasticsearch.search.SearchHits;
import org.elasticsearch.search.SearchModule;
import org.elasticsearch.search.SearchShardTarget;
import org.elasticsearch.test.AbstractWireSerializingTestCase;

import java.util.ArrayList;
import java.util.List;

/**
 * Elasticsearch's wire contract for the folded page: the inner search response it holds a reference to, the fold
 * parameters and the representatives with their members.
 */
public class FoldResponseWireTest extends AbstractWireSerializingTestCase<FoldResponse> {

    private static SearchResponse randomSearch(int hitCount) {
        SearchHit[] hits = new SearchHit[hitCount];
        for (int i = 0; i < hitCount; i++) {
            hits[i] = SearchHit.unpooled(i, randomAlphaOfLengthBetween(1, 10));
            hits[i].score(randomFloat());
            hits[i].shard(new SearchShardTarget("node", new ShardId(randomAlphaOfLength(5), "_na_", 0), null));
        }
        SearchHits searchHits = new SearchHits(hits, new TotalHits(hitCount, TotalHits.Relation.EQUAL_TO), 1f);
        try {
            return new SearchResponse(searchHits, null, null, randomBoolean(), null, null, 1, null, 1, 1, 0, randomNonNegativeLong(),
                ShardSearchFailure.EMPTY_ARRAY, SearchResponse.Clusters.EMPTY);
        } finally {
            searchHits.decRef();
        }
    }

    private static List<FoldResponse.Representative> randomPage(int hitCount, boolean verified) {
        List<FoldResponse.Representative> page = new ArrayList<>();
        for (int r = 0; r < hitCount && randomBoolean(); r++) {
            List<FoldResponse.Member> members = null;
            if (randomBoolean()) {
                members = new ArrayList<>();
                for (int m = between(0, 3); m > 0; m--) {
                    members.add(new FoldResponse.Member(between(0, hitCount - 1), between(0, 64), verified ? randomDouble() : null));
                }
            }
            page.add(new FoldResponse.Representative(r, randomBoolean() ? randomLong() : null, between(0, hitCount), members));
        }
        return page;
    }

    private static FoldParams randomParams() {
        return new FoldParams(randomAlphaOfLengthBetween(1, 10), between(0, 64), randomBoolean(), null, false,
            between(1, FoldParams.MAX_WINDOW), randomBoolean(), between(0, FoldParams.MAX_MEMBERS));
    }

    /** The response takes its own reference to the search: the one taken here is released at once. */
    private static FoldResponse of(SearchResponse search, FoldParams fold, long took, int groups, List<FoldResponse.Representative> page) {
        try {
            return new FoldResponse(search, fold, took, groups, page);
        } finally {
            search.decRef();
        }
    }

    @Override
    protected FoldResponse createTestInstance() {
        int hitCount = between(0, 5);
        return of(randomSearch(hitCount), randomParams(), randomNonNegativeLong(), between(0, hitCount), randomPage(hitCount, false));
    }

    @Override
    protected FoldResponse mutateInstance(FoldResponse r) throws java.io.IOException {
        // a copy of the search response keeps the instance's own reference untouched
        FoldResponse copy = copyInstance(r);
        try {
            SearchResponse search = copy.search();
            search.mustIncRef();
            FoldParams fold = copy.fold();
            long took = copy.tookMillis();
            int groups = copy.groups();
            List<FoldResponse.Representative> page = copy.page();
            switch (between(0, 4)) {
                case 0 -> {
                    search.decRef();
                    search = randomSearch(copy.considered() + 1);
                }
                case 1 -> fold = randomValueOtherThan(fold, FoldResponseWireTest::randomParams);
                case 2 -> took = took + 1;
                case 3 -> groups = groups + 1;
                default -> page = randomValueOtherThan(page, () -> randomPage(Math.max(1, copy.considered()), true));
            }
            return of(search, fold, took, groups, page);
        } finally {
            copy.decRef();
        }
    }

    @Override
    protected void dispose(FoldResponse response) {
        response.decRef();
    }

    @Override
    protected Writeable.Reader<FoldResponse> instanceReader() {
        return FoldResponse::new;
    }

    @Override
    protected NamedWriteableRegistry getNamedWriteableRegistry() {
        return new NamedWriteableRegistry(new SearchModule(Settings.EMPTY, List.of()).getNamedWriteables());
    }
}
