package dev.simhash.compat;

import org.elasticsearch.index.mapper.NumberFieldMapper;

/** Field types the unit tests build by hand, whose constructors differ between Elasticsearch lines. */
public final class CompatTestFields {

    private CompatTestFields() {}

    /** A {@code long} field type, indexed and with doc values as given: 9.5 has a constructor for exactly that. */
    public static NumberFieldMapper.NumberFieldType longField(String name, boolean indexed, boolean docValues) {
        return new NumberFieldMapper.NumberFieldType(name, NumberFieldMapper.NumberType.LONG, indexed, docValues);
    }
}
