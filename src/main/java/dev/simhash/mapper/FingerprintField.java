package dev.simhash.mapper;

import dev.simhash.core.BlockTermLayout;
import dev.simhash.core.FingerprintFields;
import dev.simhash.core.SimHash;

import org.elasticsearch.index.mapper.KeywordFieldMapper;
import org.elasticsearch.index.mapper.MappedFieldType;
import org.elasticsearch.index.mapper.NumberFieldMapper;

import java.util.function.Function;

/**
 * Where the fingerprints named by a query's, script's or request's {@code field} live in an index, found
 * through the field types: a {@code simhash} field ({@link SimHashFieldType}), or the object the ingest
 * processor writes ({@code hash} as a {@code long} with doc values, {@code b0}..{@code b3} as indexed
 * {@code keyword}s).
 *
 * @param name            the field as the user named it
 * @param docValuesField  the field whose sorted-numeric doc values hold the 64-bit fingerprints
 * @param blocks          where the block terms are indexed
 * @param fieldType       the {@code simhash} field type, or null for the processor's object form
 */
public record FingerprintField(String name, String docValuesField, BlockTermLayout blocks, SimHashFieldType fieldType) {

    /** Whether this is a {@code simhash} field (else the processor's object form). */
    public boolean isFieldType() {
        return fieldType != null;
    }

    /**
     * The radius used when a request gives none: the {@code simhash} field's version default (v1: 3, v2: 6 bits), or
     * simhash-v1's for the processor's object form, whose fingerprints do not record their version.
     */
    public int defaultMaxDistance() {
        return fieldType != null ? fieldType.defaultMaxDistance() : SimHash.DEFAULT_MAX_DISTANCE;
    }

    /**
     * Resolves {@code field} in one index.
     *
     * @param lookup the index's field types by full name
     * @return null when neither a {@code simhash} field nor any part of the object form is mapped under that name
     * @throws IllegalArgumentException naming {@code [field]} when the name is mapped, but not as fingerprints
     */
    public static FingerprintField resolve(String field, Function<String, MappedFieldType> lookup) {
        MappedFieldType leaf = lookup.apply(field);
        if (leaf instanceof SimHashFieldType ft) {
            return new FingerprintField(field, ft.name(), ft.blockLayout(), ft);
        }
        if (leaf != null) {
            throw new IllegalArgumentException("[field] [" + field + "] is a [" + leaf.typeName() + "] field; it must name a ["
                + SimHashFieldMapper.CONTENT_TYPE + "] field or the object the simhash processor writes (with [hash] and [b0]..[b3] "
                + "under it)" + hint(field, leaf));
        }
        String hashPath = FingerprintFields.hashPath(field);
        MappedFieldType hash = lookup.apply(hashPath);
        MappedFieldType[] blocks = new MappedFieldType[SimHash.BLOCKS];
        boolean anyMapped = hash != null;
        for (int j = 0; j < SimHash.BLOCKS; j++) {
            blocks[j] = lookup.apply(FingerprintFields.blockPath(field, j));
            anyMapped |= blocks[j] != null;
        }
        if (!anyMapped) {
            return null;
        }
        if (!(hash instanceof NumberFieldMapper.NumberFieldType n) || n.numericType() != org.elasticsearch.index.fielddata.IndexNumericFieldData.NumericType.LONG
            || !hash.hasDocValues()) {
            throw new IllegalArgumentException("[field] [" + hashPath + "] must be mapped as [long] with doc values, found ["
                + (hash == null ? "unmapped" : hash.typeName() + (hash.hasDocValues() ? "" : " without doc values"))
                + "]: map a [simhash] field, or declare the fingerprint object of docs/processor.md");
        }
        String[] blockFields = new String[SimHash.BLOCKS];
        for (int j = 0; j < SimHash.BLOCKS; j++) {
            blockFields[j] = FingerprintFields.blockPath(field, j);
            if (!(blocks[j] instanceof KeywordFieldMapper.KeywordFieldType) || !blocks[j].isSearchable()) {
                throw new IllegalArgumentException("[field] [" + blockFields[j] + "] must be mapped as an indexed [keyword], found ["
                    + (blocks[j] == null ? "unmapped" : blocks[j].typeName())
                    + "]: map a [simhash] field, or declare the fingerprint object of docs/processor.md");
            }
        }
        return new FingerprintField(field, hash.name(), BlockTermLayout.hexFields(blockFields), null);
    }

    private static String hint(String field, MappedFieldType leaf) {
        String suffix = "." + FingerprintFields.HASH;
        if (leaf instanceof NumberFieldMapper.NumberFieldType && field.endsWith(suffix)) {
            return "; pass the object [" + field.substring(0, field.length() - suffix.length()) + "], not its hash field";
        }
        return "";
    }
}
