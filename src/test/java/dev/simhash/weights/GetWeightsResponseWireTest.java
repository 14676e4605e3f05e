package dev.simhash.weights;

import org.elasticsearch.common.io.stream.Writeable;
import org.elasticsearch.test.AbstractWireSerializingTestCase;

import java.util.Locale;
import java.util.ArrayList;
import java.util.List;

/** Elasticsearch's wire contract (round trips, equals and hashCode) for {@link GetWeightsResponse}: one table or all. */
public class GetWeightsResponseWireTest extends AbstractWireSerializingTestCase<GetWeightsResponse> {

    @Override
    protected GetWeightsResponse createTestInstance() {
        if (randomBoolean()) {
            WeightsTable t = WeightsMetadataWireTest.randomTable(randomAlphaOfLengthBetween(1, 8).toLowerCase(Locale.ROOT));
            return new GetWeightsResponse(t.name(), List.of(t), between(0, 100));
        }
        List<WeightsTable> tables = new ArrayList<>();
        for (int i = between(0, 3); i > 0; i--) {
            tables.add(WeightsMetadataWireTest.randomTable("t" + i));
        }
        return new GetWeightsResponse(null, tables, between(0, 100));
    }

    @Override
    protected GetWeightsResponse mutateInstance(GetWeightsResponse r) {
        return switch (between(0, 2)) {
            case 0 -> new GetWeightsResponse(r.name(), r.tables(), r.featureLimit() + 1);
            case 1 -> {
                List<WeightsTable> more = new ArrayList<>(r.tables());
                more.add(WeightsMetadataWireTest.randomTable("another"));
                yield new GetWeightsResponse(null, more, r.featureLimit());
            }
            default -> new GetWeightsResponse(r.name() == null ? "all" : null, r.tables(), r.featureLimit());
        };
    }

    @Override
    protected Writeable.Reader<GetWeightsResponse> instanceReader() {
        return GetWeightsResponse::new;
    }
}
