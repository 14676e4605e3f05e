package dev.simhash.fold;

import org.elasticsearch.action.search.SearchRequest;
import org.elasticsearch.common.io.stream.NamedWriteableRegistry;
import org.elasticsearch.common.io.stream.Writeable;
import org.elasticsearch.common.settings.Settings;
import org.elasticsearch.index.query.QueryBuilder;
import org.elasticsearch.index.query.QueryBuilders;
import org.elasticsearch.search.SearchModule;
import org.elasticsearch.search.builder.SearchSourceBuilder;
import org.elasticsearch.test.AbstractWireSerializingTestCase;

import java.util.List;

/** Elasticsearch's wire contract for the fold request: the inner search, the fold parameters and the page. */
public class FoldRequestWireTest extends AbstractWireSerializingTestCase<FoldRequest> {

    private static FoldRequest of(String[] indices, QueryBuilder query, int from, int size, FoldParams fold) {
        return new FoldRequest(new SearchRequest(indices).source(new SearchSourceBuilder().query(query).from(from).size(size)), fold);
    }

    private static FoldParams randomParams() {
        boolean verified = randomBoolean();
        return new FoldParams(randomAlphaOfLengthBetween(1, 10), between(0, 64), verified == false && randomBoolean(),
            verified ? randomDoubleBetween(0.01, 1, true) : null, verified, between(1, FoldParams.MAX_WINDOW), randomBoolean(),
            between(0, FoldParams.MAX_MEMBERS));
    }

    @Override
    protected FoldRequest createTestInstance() {
        return of(randomArray(1, 3, String[]::new, () -> randomAlphaOfLengthBetween(1, 8)),
            randomFrom(QueryBuilders.matchAllQuery(), QueryBuilders.termQuery(randomAlphaOfLength(5), randomAlphaOfLength(5))),
            between(0, 100), between(0, 100), randomParams());
    }

    @Override
    protected FoldRequest mutateInstance(FoldRequest r) {
        String[] indices = r.search().indices();
        QueryBuilder query = r.search().source().query();
        int from = r.from();
        int size = r.size();
        FoldParams fold = r.fold();
        switch (between(0, 4)) {
            case 0 -> indices = new String[] { indices[0] + "x" };
            case 1 -> query = randomValueOtherThan(query, () -> QueryBuilders.termQuery(randomAlphaOfLength(6), randomAlphaOfLength(6)));
            case 2 -> from = from + 1;
            case 3 -> size = size + 1;
            default -> fold = randomValueOtherThan(fold, FoldRequestWireTest::randomParams);
        }
        return of(indices, query, from, size, fold);
    }

    @Override
    protected Writeable.Reader<FoldRequest> instanceReader() {
        return FoldRequest::new;
    }

    @Override
    protected NamedWriteableRegistry getNamedWriteableRegistry() {
        return new NamedWriteableRegistry(new SearchModule(Settings.EMPTY, List.of()).getNamedWriteables());
    }
}
