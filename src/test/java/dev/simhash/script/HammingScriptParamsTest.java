package dev.simhash.script;

import dev.simhash.core.SimHash;

import org.elasticsearch.index.mapper.KeywordFieldMapper;
import org.elasticsearch.index.mapper.MappedFieldType;
import org.elasticsearch.index.mapper.NumberFieldMapper;
import org.elasticsearch.test.ESTestCase;

import java.math.BigInteger;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.startsWith;

/** Params of the simhash scripts: required params, accepted hash forms, type errors and mapping checks. */
public class HammingScriptParamsTest extends ESTestCase {

    private static Map<String, Object> params(Object... keyValues) {
        Map<String, Object> m = new HashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            m.put((String) keyValues[i], keyValues[i + 1]);
        }
        return m;
    }

    private static String error(Map<String, Object> params) {
        return expectThrows(IllegalArgumentException.class, () -> HammingScriptParams.parse(params)).getMessage();
    }

    public void testFieldAndHexHash() {
        HammingScriptParams p = HammingScriptParams.parse(params("field", "fp", "hash", "8000000000000001"));
        assertEquals("fp", p.target());
        assertEquals("fp.hash", p.hashField());
        assertEquals(0x8000000000000001L, p.hash());
        assertEquals(0x8000000000000001L, HammingScriptParams.parse(params("field", "fp", "hash", "8000000000000001".toUpperCase(java.util.Locale.ROOT))).hash());
    }

    public void testHashAsJsonNumbersAndDecimalStrings() {
        for (int i = 0; i < 1000; i++) {
            long v = randomLong();
            assertEquals(v, HammingScriptParams.parse(params("field", "fp", "hash", v)).hash());
            assertEquals(v, HammingScriptParams.parse(params("field", "fp", "hash", SimHash.toHex(v))).hash());
        }
        assertEquals(-1L, HammingScriptParams.parse(params("field", "fp", "hash", -1)).hash());
        assertEquals(42L, HammingScriptParams.parse(params("field", "fp", "hash", 42)).hash());
        assertEquals(-42L, HammingScriptParams.parse(params("field", "fp", "hash", "-42")).hash());
        // a number with 16 decimal digits stays a number: it is never re-read as hex
        assertEquals(1234567890123456L, HammingScriptParams.parse(params("field", "fp", "hash", 1234567890123456L)).hash());
        assertEquals(Long.MIN_VALUE, HammingScriptParams.parse(params("field", "fp", "hash", Long.MIN_VALUE)).hash());
    }

    public void testRequiredParams() {
        assertThat(error(params("hash", "0")), startsWith("[field] param is required"));
        assertThat(error(params("field", "fp")), startsWith("[hash] param is required"));
        assertThat(error(params()), containsString("param is required"));
        assertThat(error(null), containsString("param is required"));
        assertThat(error(params("field", null, "hash", "0")), startsWith("[field] param is required"));
        assertThat(error(params("field", "fp", "hash", null)), startsWith("[hash] param is required"));
    }

    public void testWrongTypesAndValues() {
        assertThat(error(params("field", 42, "hash", "0")), startsWith("[field] must be a string"));
        assertThat(error(params("field", List.of("fp"), "hash", "0")), containsString("an array"));
        assertThat(error(params("field", " ", "hash", "0")), startsWith("[field] must not be empty"));
        assertThat(error(params("field", "fp", "hash", 1.5)), startsWith("[hash] must be 16 hex digits"));
        assertThat(error(params("field", "fp", "hash", 1.0)), startsWith("[hash] must be 16 hex digits"));
        assertThat(error(params("field", "fp", "hash", true)), containsString("a boolean"));
        assertThat(error(params("field", "fp", "hash", Map.of("a", 1))), containsString("an object"));
        assertThat(error(params("field", "fp", "hash", List.of(1L))), containsString("an array"));
        assertThat(error(params("field", "fp", "hash", "xyz")), startsWith("[hash] expected a fingerprint"));
        assertThat(error(params("field", "fp", "hash", "")), startsWith("[hash] "));
        assertThat(error(params("field", "fp", "hash", "0123456789abcdeg")), startsWith("[hash] "));
        assertThat(error(params("field", "fp", "hash", "x".repeat(10_000))), containsString("(10000 chars)"));
        assertThat(error(params("field", "fp", "hash", new BigInteger("18446744073709551615"))),
            startsWith("[hash] [18446744073709551615] is outside the signed 64-bit range"));
    }

    public void testUnknownParamsAreRejected() {
        assertThat(error(params("field", "fp", "hash", "0", "max_distance", 3)),
            startsWith("unknown simhash script param [max_distance], expected [field, hash]"));
        assertThat(error(params("field", "fp", "hsah", "0")), containsString("[hsah]"));
    }

    private static Function<String, MappedFieldType> mapping(MappedFieldType... types) {
        Map<String, MappedFieldType> m = new HashMap<>();
        for (MappedFieldType t : types) {
            m.put(t.name(), t);
        }
        return m::get;
    }

    // every line's constructors differ but for the ones with doc values: a long indexed without them, overriding the flag
    private static MappedFieldType longWithoutDocValues(String name) {
        return new NumberFieldMapper.NumberFieldType(name, NumberFieldMapper.NumberType.LONG, true) {
            @Override
            public boolean hasDocValues() {
                return false;
            }
        };
    }

    private static String mappingError(String target, Function<String, MappedFieldType> mapping) {
        HammingScriptParams p = HammingScriptParams.parse(params("field", target, "hash", "0"));
        return expectThrows(IllegalArgumentException.class, () -> p.checkMapping(mapping)).getMessage();
    }

    public void testMappingChecks() {
        HammingScriptParams.parse(params("field", "fp", "hash", "0"))
            .checkMapping(mapping(new NumberFieldMapper.NumberFieldType("fp.hash", NumberFieldMapper.NumberType.LONG)));
        // doc values are all the scripts need: an unindexed long is fine
        HammingScriptParams.parse(params("field", "fp", "hash", "0"))
            .checkMapping(mapping(new NumberFieldMapper.NumberFieldType("fp.hash", NumberFieldMapper.NumberType.LONG, false)));

        assertEquals("[field] is [fp] but [fp.hash] is not mapped; name a [simhash] field, or map [fp.hash] as a [long] under the target object the "
            + "simhash processor writes",
            mappingError("fp", mapping()));
        assertThat(mappingError("fp", mapping(new KeywordFieldMapper.KeywordFieldType("fp.hash"))),
            containsString("[fp.hash] is mapped as [keyword], expected [long]"));
        assertThat(mappingError("fp", mapping(new NumberFieldMapper.NumberFieldType("fp.hash", NumberFieldMapper.NumberType.INTEGER))),
            containsString("mapped as [integer], expected [long]"));
        assertThat(mappingError("fp", mapping(longWithoutDocValues("fp.hash"))),
            containsString("[fp.hash] has no doc values"));
        // the hash field itself instead of its target object: a hint
        assertThat(mappingError("fp.hash", mapping(new NumberFieldMapper.NumberFieldType("fp.hash", NumberFieldMapper.NumberType.LONG))),
            containsString("pass the target object [fp], not its hash field"));
    }
}
