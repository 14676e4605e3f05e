package dev.simhash.compat;

import org.elasticsearch.index.mapper.NumberFieldMapper;

import java.util.Map;

/** Field types the unit tests build by hand, whose constructors differ between Elasticsearch lines. */
public final class CompatTestFields {

    private CompatTestFields() {}

    /** A {@code long} field type, indexed and with doc values as given: 9.1 only has the constructor with every option. */
    public static NumberFieldMapper.NumberFieldType longField(String name, boolean indexed, boolean docValues) {
        return new NumberFieldMapper.NumberFieldType(name, NumberFieldMapper.NumberType.LONG, indexed, false, docValues, true, null, Map.of(),
            null, false, null, null, false);
    }
}
