package dev.simhash.compat;

import org.elasticsearch.index.fielddata.IndexFieldData;
import org.elasticsearch.index.fielddata.IndexNumericFieldData.NumericType;
import org.elasticsearch.index.fielddata.plain.SortedNumericIndexFieldData;
import org.elasticsearch.index.mapper.SimpleMappedFieldType;
import org.elasticsearch.index.mapper.TextSearchInfo;
import org.elasticsearch.script.field.LongDocValuesField;
import org.elasticsearch.search.aggregations.support.CoreValuesSourceType;

import java.util.Map;

/**
 * Base of a field type whose values are indexed terms plus long doc values, not stored: up to 9.1, Elasticsearch
 * describes that with the flags indexed, stored and doc values, and takes the text search info (none, as later lines'
 * default).
 */
public abstract class CompatFieldType extends SimpleMappedFieldType {

    protected CompatFieldType(String name, Map<String, String> meta) {
        super(name, true, false, true, TextSearchInfo.NONE, meta);
    }

    /** Field data over the field's signed 64-bit doc values (sorting, scripts, aggregations). */
    protected final IndexFieldData.Builder longFieldData() {
        return new SortedNumericIndexFieldData.Builder(name(), NumericType.LONG, CoreValuesSourceType.NUMERIC, LongDocValuesField::new,
            isIndexed());
    }
}
