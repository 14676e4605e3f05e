package dev.simhash.mapper;

import dev.simhash.core.FingerprintSpec;

import org.elasticsearch.xcontent.XContentBuilder;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Elasticsearch's contract for field mappers ({@code MapperTestCase}), run on a {@code simhash} field with
 * {@code input: fingerprint}: ready-made fingerprints, 16 hex digits or signed 64-bit integers.
 */
public class SimHashFingerprintFieldMapperTests extends SimHashMapperTestCase {

    @Override
    protected void minimalMapping(XContentBuilder b) throws IOException {
        b.field("type", SimHashFieldMapper.CONTENT_TYPE).field(SimHashFieldMapper.INPUT, "fingerprint");
    }

    @Override
    protected Object getSampleValueForDocument() {
        return "da1f74c77cd38efc";
    }

    /** 16 hex digits in either case, a signed long as a JSON number, or as a decimal string. */
    @Override
    protected Object randomValue() {
        long h = randomLong();
        return switch (between(0, 3)) {
            case 0 -> String.format(Locale.ROOT, "%016x", h);
            case 1 -> String.format(Locale.ROOT, "%016X", h);
            case 2 -> h;
            default -> Long.toString(h);
        };
    }

    /** The fingerprint as a signed long, read independently of the field's parser. */
    private static long expectedLong(Object value) {
        if (value instanceof Long l) {
            return l;
        }
        String s = (String) value;
        return s.length() == 16 && s.matches("[0-9a-fA-F]{16}") ? Long.parseUnsignedLong(s, 16) : Long.parseLong(s);
    }

    /** Every value given is stored as given (duplicates too), shown as 16 lowercase hex digits. */
    @Override
    protected void checkFetched(Object value, List<Object> fetched) {
        List<Object> given = value instanceof List<?> l ? new ArrayList<>(l) : List.of(value);
        List<Object> expected = new ArrayList<>();
        for (Object v : given) {
            expected.add(String.format(Locale.ROOT, "%016x", expectedLong(v)));
        }
        assertEquals(expected.stream().sorted().toList(), fetched.stream().map(String::valueOf).sorted().toList());
    }

    /** The mapping as the field records it: the version is always written (it sets the field's default radius). */
    @Override
    protected void metaMapping(XContentBuilder b) throws IOException {
        minimalMapping(b);
        b.field(FingerprintSpec.VERSION, FingerprintSpec.LATEST.optionName());
    }

    /**
     * The input and the version cannot change once the field exists. The text options decide nothing for ready-made
     * fingerprints: the field refuses them when it is created (a 400 naming the option), so no update of them exists.
     */
    @Override
    protected void registerParameters(ParameterChecker checker) throws IOException {
        checker.registerConflictCheck(SimHashFieldMapper.INPUT, fieldMapping(this::minimalMapping),
            fieldMapping(b -> b.field("type", SimHashFieldMapper.CONTENT_TYPE)));
        checker.registerConflictCheck(FingerprintSpec.VERSION, b -> b.field(FingerprintSpec.VERSION, "v1"));
        for (String option : List.of(FingerprintSpec.ANALYZER, FingerprintSpec.SHINGLE_SIZE, FingerprintSpec.WEIGHTING,
            FingerprintSpec.MIN_FEATURES, FingerprintSpec.WEIGHTS, FingerprintSpec.WEIGHTS_DIGEST, SimHashFieldMapper.SKETCH)) {
            ignoreParameter(checker, option);
        }
    }

    public void testTextOptionsAreRefused() throws IOException {
        for (Object[] option : new Object[][] { { FingerprintSpec.ANALYZER, "standard" }, { FingerprintSpec.SHINGLE_SIZE, 2 },
            { FingerprintSpec.WEIGHTING, "binary" }, { FingerprintSpec.MIN_FEATURES, 2 }, { FingerprintSpec.WEIGHTS, "news" },
            { SimHashFieldMapper.SKETCH, "none" } }) {
            Exception e = expectThrows(Exception.class,
                () -> createMapperService(fieldMapping(minimalWith(b -> b.field((String) option[0], option[1])))));
            assertThat(e.getMessage(), org.hamcrest.Matchers.containsString("[" + option[0] + "] does not apply to a [simhash] field with "
                + "[input] = [fingerprint]"));
        }
    }
}
