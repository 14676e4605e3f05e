package dev.simhash.weights;

import dev.simhash.core.FingerprintSpec;

import org.elasticsearch.common.io.stream.Writeable;
import org.elasticsearch.test.AbstractWireSerializingTestCase;

import java.util.HashMap;
import java.util.Map;

/** Elasticsearch's wire contract (round trips, equals and hashCode) for the cluster-state custom of feature-weight tables. */
public class WeightsMetadataWireTest extends AbstractWireSerializingTestCase<WeightsMetadata> {

    static WeightsTable randomTable(String name) {
        Map<String, Double> factors = new HashMap<>();
        for (int i = between(0, 20); i > 0; i--) {
            factors.put(randomUnicodeOfLengthBetween(1, 10), randomDoubleBetween(0, 20, true));
        }
        return new WeightsTable(name, randomFrom(FingerprintSpec.Version.values()), factors, randomDoubleBetween(0, 20, true),
            Map.of("type", randomFrom("computed", "uploaded")), randomNonNegativeLong());
    }

    @Override
    protected WeightsMetadata createTestInstance() {
        WeightsMetadata m = WeightsMetadata.EMPTY;
        for (int i = between(0, 4); i > 0; i--) {
            m = m.with(randomTable("t" + i + randomAlphaOfLength(3).toLowerCase(java.util.Locale.ROOT)));
        }
        return m;
    }

    @Override
    protected WeightsMetadata mutateInstance(WeightsMetadata instance) {
        if (instance.tables().isEmpty() || randomBoolean()) {
            return instance.with(randomTable("another-" + instance.tables().size()));
        }
        return instance.without(randomFrom(instance.tables().keySet()));
    }

    @Override
    protected Writeable.Reader<WeightsMetadata> instanceReader() {
        return WeightsMetadata::new;
    }
}
