package dev.simhash.mapper;

import dev.simhash.core.SimHash;
import dev.simhash.wire.WireEnvelope;

import org.elasticsearch.common.io.stream.StreamInput;
import org.elasticsearch.common.io.stream.StreamOutput;
import org.elasticsearch.search.DocValueFormat;

import java.io.IOException;
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

    /** Reads the format: it has no fields yet, but an envelope, so that a later release can give it some. */
    public static HexFormat readFrom(StreamInput in) throws IOException {
        WireEnvelope.read(in);
        return INSTANCE;
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        WireEnvelope.write(out, body -> {});
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
