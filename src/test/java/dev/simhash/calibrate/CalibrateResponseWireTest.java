package dev.simhash.calibrate;

import org.elasticsearch.common.io.stream.Writeable;
import org.elasticsearch.test.AbstractWireSerializingTestCase;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Elasticsearch's wire contract (round trips, equals and hashCode) for {@link CalibrateResponse}: a report of plain values. */
public class CalibrateResponseWireTest extends AbstractWireSerializingTestCase<CalibrateResponse> {

    /** A report as {@link TransportCalibrateAction} makes them: numbers, strings, lists and maps, nested. */
    private static Map<String, Object> randomReport(int depth) {
        Map<String, Object> report = new LinkedHashMap<>();
        for (int i = between(0, 5); i > 0; i--) {
            String key = randomAlphaOfLengthBetween(1, 8);
            report.put(key, switch (depth > 1 ? between(0, 3) : between(0, 5)) {
                case 0 -> randomInt();
                case 1 -> randomDouble();
                case 2 -> randomUnicodeOfLengthBetween(0, 10);
                case 3 -> randomLong();
                case 4 -> randomReport(depth + 1);
                default -> {
                    List<Object> rows = new ArrayList<>();
                    for (int j = between(0, 3); j > 0; j--) {
                        rows.add(randomReport(depth + 1));
                    }
                    yield rows;
                }
            });
        }
        return report;
    }

    @Override
    protected CalibrateResponse createTestInstance() {
        return new CalibrateResponse(randomReport(0));
    }

    @Override
    protected CalibrateResponse mutateInstance(CalibrateResponse r) {
        Map<String, Object> other = new LinkedHashMap<>(r.report());
        if (other.isEmpty() || randomBoolean()) {
            other.put("warnings_" + other.size(), List.of("another"));
        } else {
            other.remove(randomFrom(other.keySet()));
        }
        return new CalibrateResponse(other);
    }

    @Override
    protected Writeable.Reader<CalibrateResponse> instanceReader() {
        return CalibrateResponse::new;
    }
}
