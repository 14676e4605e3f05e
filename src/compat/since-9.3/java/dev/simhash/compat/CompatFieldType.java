package dev.simhash.compat;

import org.elasticsearch.index.fielddata.IndexFieldData;
import org.elasticsearch.index.fielddata.IndexNumericFieldData.NumericType;
import org.elasticsearch.index.fielddata.plain.SortedNumericIndexFieldData;
import org.elasticsearch.index.mapper.IndexType;
import org.elasticsearch.index.mapper.SimpleMappedFieldType;
import org.elasticsearch.script.field.LongDocValuesField;
import org.elasticsearch.search.aggregations.support.CoreValuesSourceType;

import java.util.Map;

/**
 * Base of a field type whose values are indexed terms plus long doc values, not stored: from 9.3 on, Elasticsearch describes that
 * with an {@link IndexType}.
 */
public abstract class CompatFieldType extends SimpleMappedFieldType {

    protected CompatFieldType(String name, Map<String, String> meta) {
        super(name, IndexType.terms(true, true), false, meta);
    }

    /** Field data over the field's signed 64-bit doc values (sorting, scripts, aggregations). */
    protected final IndexFieldData.Builder longFieldData() {
        return new SortedNumericIndexFieldData.Builder(name(), NumericType.LONG, CoreValuesSourceType.NUMERIC, LongDocValuesField::new,
            indexType());
    }
}
