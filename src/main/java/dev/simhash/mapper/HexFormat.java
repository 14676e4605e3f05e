package dev.simhash.mapper;

import dev.simhash.core.SimHash;

import org.elasticsearch.common.io.stream.StreamOutput;
import org.elasticsearch.search.DocValueFormat;

import java.util.function.LongSupplier;

/**
 * Renders a fingerprint the way the contract writes it on the wire: 16 lowercase hex digits; parses
 * 16 hex digits or a signed decimal long back (e.g. in {@code search_after}). The default format of
 * a {@code simhash} field in {@code fields}, {@code docvalue_fields}, sort values and aggregations.
 */
public final class HexFormat implements DocValueFormat {

    public static final String NAME = "simhash_hex";
    /** The value of {@code format} in {@code docvalue_fields} / {@code fields} that asks for this format explicitly. */
    public static final String FORMAT = "hex";
    public static final HexFormat INSTANCE = new HexFormat();

    private HexFormat() {}

    @Override
    public String getWriteableName() {
        return NAME;
    }

    @Override
    public void writeTo(StreamOutput out) {
        // stateless
    }

    @Override
    public Object format(long value) {
        return SimHash.toHex(value);
    }

    @Override
    public Object format(double value) {
        // e.g. a min/max aggregation: a double cannot hold every fingerprint exactly, so it is shown as it is
        return value;
    }

    @Override
    public long parseLong(String value, boolean roundUp, LongSupplier now) {
        return SimHash.parse(value);
    }

    @Override
    public double parseDouble(String value, boolean roundUp, LongSupplier now) {
        return SimHash.parse(value);
    }

    @Override
    public String toString() {
        return FORMAT;
    }
}
