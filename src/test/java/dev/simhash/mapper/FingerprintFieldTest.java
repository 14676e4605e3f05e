package dev.simhash.mapper;

import dev.simhash.core.BlockTermLayout;
import dev.simhash.core.FingerprintSpec;

import org.apache.lucene.util.BytesRef;
import org.elasticsearch.index.mapper.KeywordFieldMapper;
import org.elasticsearch.index.mapper.MappedFieldType;
import org.elasticsearch.index.mapper.NumberFieldMapper;
import org.elasticsearch.test.ESTestCase;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;

/** How the query and the scripts find fingerprints: by field type, the simhash field or the processor's object form. */
public class FingerprintFieldTest extends ESTestCase {

    private static Function<String, MappedFieldType> mapping(MappedFieldType... types) {
        Map<String, MappedFieldType> m = new HashMap<>();
        for (MappedFieldType t : types) {
            m.put(t.name(), t);
        }
        return m::get;
    }

    private static MappedFieldType[] objectForm(String target) {
        return new MappedFieldType[] { new NumberFieldMapper.NumberFieldType(target + ".hash", NumberFieldMapper.NumberType.LONG),
            new KeywordFieldMapper.KeywordFieldType(target + ".b0"), new KeywordFieldMapper.KeywordFieldType(target + ".b1"),
            new KeywordFieldMapper.KeywordFieldType(target + ".b2"), new KeywordFieldMapper.KeywordFieldType(target + ".b3") };
    }

    public void testASimhashFieldIsFoundByItsType() {
        SimHashFieldType type = new SimHashFieldType("body.simhash", SimHashFieldMapper.Input.TEXT, FingerprintSpec.Version.V1, FingerprintSpec.DEFAULTS, null, null, Map.of());
        FingerprintField fp = FingerprintField.resolve("body.simhash", mapping(type));
        assertTrue(fp.isFieldType());
        assertEquals("body.simhash", fp.docValuesField());
        assertEquals(BlockTermLayout.packed("body.simhash"), fp.blocks());
        assertEquals(new BytesRef(new byte[] { 1, (byte) 0xab, (byte) 0xcd }), fp.blocks().term(1, 0xabcd));
    }

    public void testTheObjectFormIsFoundByItsFiveFields() {
        FingerprintField fp = FingerprintField.resolve("simhash", mapping(objectForm("simhash")));
        assertFalse(fp.isFieldType());
        assertEquals("simhash.hash", fp.docValuesField());
        assertEquals("simhash.b2", fp.blocks().field(2));
        assertEquals(new BytesRef("abcd"), fp.blocks().term(2, 0xabcd));
    }

    public void testUnmappedIsNullAndWrongMappingsNameTheField() {
        assertNull(FingerprintField.resolve("nope", mapping(objectForm("simhash"))));
        assertEquals("[field] [title] is a [keyword] field; it must name a [simhash] field or the object the simhash processor writes "
            + "(with [hash] and [b0]..[b3] under it)",
            expectThrows(IllegalArgumentException.class, () -> FingerprintField.resolve("title",
                mapping(new KeywordFieldMapper.KeywordFieldType("title")))).getMessage());
        MappedFieldType[] intHash = objectForm("fp");
        intHash[0] = new NumberFieldMapper.NumberFieldType("fp.hash", NumberFieldMapper.NumberType.INTEGER);
        assertEquals("[field] [fp.hash] must be mapped as [long] with doc values, found [integer]: map a [simhash] field, or declare "
            + "the fingerprint object of docs/processor.md",
            expectThrows(IllegalArgumentException.class, () -> FingerprintField.resolve("fp", mapping(intHash))).getMessage());
        MappedFieldType[] numericBlock = objectForm("fp");
        numericBlock[3] = new NumberFieldMapper.NumberFieldType("fp.b2", NumberFieldMapper.NumberType.INTEGER);
        assertTrue(expectThrows(IllegalArgumentException.class, () -> FingerprintField.resolve("fp", mapping(numericBlock))).getMessage()
            .startsWith("[field] [fp.b2] must be mapped as an indexed [keyword], found [integer]"));
        assertEquals("[field] [simhash.hash] is a [long] field; it must name a [simhash] field or the object the simhash processor "
            + "writes (with [hash] and [b0]..[b3] under it); pass the object [simhash], not its hash field",
            expectThrows(IllegalArgumentException.class, () -> FingerprintField.resolve("simhash.hash", mapping(objectForm("simhash"))))
                .getMessage());
    }

    public void testHexFormat() {
        assertEquals("ffffffffffffffff", HexFormat.INSTANCE.format(-1L));
        assertEquals("000000000000002a", HexFormat.INSTANCE.format(42L));
        assertEquals(-1L, HexFormat.INSTANCE.parseLong("ffffffffffffffff", false, () -> 0L));
        assertEquals(42L, HexFormat.INSTANCE.parseLong("42", false, () -> 0L));
        SimHashFieldType type = new SimHashFieldType("fp", SimHashFieldMapper.Input.FINGERPRINT, FingerprintSpec.Version.V1, null, null, null, Map.of());
        assertSame(HexFormat.INSTANCE, type.docValueFormat(null, null));
        assertSame(HexFormat.INSTANCE, type.docValueFormat("hex", null));
        assertEquals("[format] field [fp] of type [simhash] supports the formats [hex] (16 hex digits, the default) and [long], got "
            + "[yyyy]", expectThrows(IllegalArgumentException.class, () -> type.docValueFormat("yyyy", null)).getMessage());
    }
}
