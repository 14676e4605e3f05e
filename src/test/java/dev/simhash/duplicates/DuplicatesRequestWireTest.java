package dev.simhash.duplicates;

import org.elasticsearch.action.search.SearchRequest;
import org.elasticsearch.action.support.IndicesOptions;
import org.elasticsearch.common.io.stream.NamedWriteableRegistry;
import org.elasticsearch.common.io.stream.Writeable;
import org.elasticsearch.common.settings.Settings;
import org.elasticsearch.index.query.QueryBuilders;
import org.elasticsearch.search.SearchModule;
import org.elasticsearch.test.AbstractWireSerializingTestCase;

import java.io.IOException;
import java.util.List;

/** Elasticsearch's wire contract for the report request as nodes pass it on. */
public class DuplicatesRequestWireTest extends AbstractWireSerializingTestCase<DuplicatesRequest> {

    static final NamedWriteableRegistry REGISTRY = new NamedWriteableRegistry(new SearchModule(Settings.EMPTY, List.of())
        .getNamedWriteables());

    /** A valid request with every parameter drawn at random (the setters validate as the REST parser's values are). */
    static DuplicatesRequest randomRequest() {
        DuplicatesRequest r = new DuplicatesRequest(randomArray(1, 3, String[]::new, () -> randomAlphaOfLengthBetween(1, 8)))
            .field(randomAlphaOfLengthBetween(1, 10));
        switch (between(0, 2)) {
            case 0 -> r.maxDistance(between(0, DuplicatesRequest.MAX_MAX_DISTANCE));
            case 1 -> r.minSimilarity(randomDoubleBetween(0.01, 1, true));
            default -> {}
        }
        if (randomBoolean()) {
            r.query(randomFrom(QueryBuilders.matchAllQuery(), QueryBuilders.termQuery(randomAlphaOfLength(5), randomAlphaOfLength(5))));
        }
        r.from(between(0, 10_000)).size(between(0, DuplicatesRequest.MAX_SIZE)).maxMembers(between(0, DuplicatesRequest.MAX_MAX_MEMBERS));
        if (randomBoolean()) {
            r.writeGroupId("group_" + randomAlphaOfLength(4)).overwriteGroupId(randomBoolean());
        }
        r.readMode(randomFrom(DuplicatesRequest.ReadMode.values()));
        r.indicesOptions(randomFrom(SearchRequest.DEFAULT_INDICES_OPTIONS, IndicesOptions.lenientExpandOpen(),
            IndicesOptions.strictExpandOpenAndForbidClosed()));
        return r;
    }

    /** The same request with one parameter changed. */
    static DuplicatesRequest mutate(DuplicatesRequest in) throws IOException {
        DuplicatesRequest r = copyWriteable(in, REGISTRY, DuplicatesRequest::new);
        switch (between(0, 9)) {
            case 0 -> r.indices(randomValueOtherThanMany(List.of(in.indices())::contains, () -> randomAlphaOfLength(9)));
            case 1 -> r.field(in.field() + "x");
            case 2 -> r.maxDistance((in.maxDistance() + 1) % (DuplicatesRequest.MAX_MAX_DISTANCE + 1));
            case 3 -> r.minSimilarity(in.minSimilarity() == null || in.minSimilarity() != 0.5 ? 0.5 : 0.25);
            case 4 -> r.query(in.query() == null ? QueryBuilders.matchAllQuery() : null);
            case 5 -> r.from(in.from() + 1);
            case 6 -> r.size(in.size() == 0 ? 1 : in.size() - 1);
            case 7 -> r.maxMembers(in.maxMembers() == 0 ? 1 : in.maxMembers() - 1);
            case 8 -> r.readMode(in.readMode() == DuplicatesRequest.ReadMode.SLICED ? DuplicatesRequest.ReadMode.SEQUENTIAL
                : DuplicatesRequest.ReadMode.SLICED);
            default -> r.writeGroupId(in.writeGroupId() == null ? "group" : null).overwriteGroupId(false);
        }
        return r;
    }

    @Override
    protected DuplicatesRequest createTestInstance() {
        return randomRequest();
    }

    @Override
    protected DuplicatesRequest mutateInstance(DuplicatesRequest instance) throws IOException {
        return mutate(instance);
    }

    @Override
    protected Writeable.Reader<DuplicatesRequest> instanceReader() {
        return DuplicatesRequest::new;
    }

    @Override
    protected NamedWriteableRegistry getNamedWriteableRegistry() {
        return REGISTRY;
    }
}
