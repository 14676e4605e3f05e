package dev.simhash.weights;

import org.elasticsearch.common.io.stream.Writeable;
import org.elasticsearch.test.AbstractWireSerializingTestCase;

import java.util.HashMap;
import java.util.Map;

/** Elasticsearch's wire contract (round trips, equals and hashCode) for {@link PutWeightsRequest}, uploads and computations. */
public class PutWeightsRequestWireTest extends AbstractWireSerializingTestCase<PutWeightsRequest> {

    @Override
    protected PutWeightsRequest createTestInstance() {
        PutWeightsRequest.Body b = new PutWeightsRequest.Body();
        b.version = randomFrom("v1", "v2", null);
        if (randomBoolean()) {
            Map<String, Double> features = new HashMap<>();
            for (int i = between(0, 10); i > 0; i--) {
                features.put(randomUnicodeOfLengthBetween(1, 8), randomDoubleBetween(0, 100, true));
            }
            b.features = features;
            b.defaultWeight = randomBoolean() ? null : randomDoubleBetween(0, 10, true);
        } else {
            b.index = randomAlphaOfLengthBetween(1, 8);
            b.field = randomBoolean() ? null : randomAlphaOfLengthBetween(1, 8);
            b.sampleSize = randomBoolean() ? null : between(1, 1_000_000);
            b.minDf = randomBoolean() ? null : between(1, 100);
            b.maxFeatures = randomBoolean() ? null : between(1, WeightsTable.MAX_FEATURES);
            b.analyzer = randomFrom("standard", "whitespace", null);
            b.shingleSize = randomBoolean() ? null : between(1, 5);
            b.seed = randomBoolean() ? null : randomInt();
        }
        return new PutWeightsRequest(randomAlphaOfLengthBetween(1, 10), b).shouldStoreResult(randomBoolean());
    }

    @Override
    protected PutWeightsRequest mutateInstance(PutWeightsRequest r) {
        PutWeightsRequest.Body b = r.toBody();
        String name = r.name();
        boolean store = r.getShouldStoreResult();
        boolean upload = b.index == null;
        switch (between(0, 3)) {
            case 0 -> name = name + "x";
            case 1 -> store = !store;
            case 2 -> b.version = "v1".equals(b.version) ? "v2" : "v1";
            default -> {
                if (upload) {
                    if (randomBoolean()) {
                        Map<String, Double> more = new HashMap<>(b.features);
                        more.put("another feature " + more.size(), 1.5);
                        b.features = more;
                    } else {
                        b.defaultWeight = b.defaultWeight + 1;
                    }
                } else {
                    switch (between(0, 7)) {
                        case 0 -> b.index = b.index + "x";
                        case 1 -> b.field = b.field == null ? "body" : null;
                        case 2 -> b.sampleSize = b.sampleSize + 1;
                        case 3 -> b.minDf = b.minDf + 1;
                        case 4 -> b.maxFeatures = b.maxFeatures == 1 ? 2 : b.maxFeatures - 1;
                        case 5 -> b.analyzer = b.analyzer == null ? "standard" : null;
                        case 6 -> b.shingleSize = b.shingleSize + 1;
                        default -> b.seed = b.seed + 1;
                    }
                }
            }
        }
        return new PutWeightsRequest(name, b).shouldStoreResult(store);
    }

    @Override
    protected Writeable.Reader<PutWeightsRequest> instanceReader() {
        return PutWeightsRequest::new;
    }
}
