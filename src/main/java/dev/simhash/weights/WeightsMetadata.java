package dev.simhash.weights;

import dev.simhash.compat.CompatProjectCustom;
import dev.simhash.core.FingerprintSpec;
import dev.simhash.wire.WireEnvelope;

import org.elasticsearch.TransportVersion;
import org.elasticsearch.common.io.stream.StreamInput;
import org.elasticsearch.common.io.stream.StreamOutput;
import org.elasticsearch.xcontent.ToXContent;
import org.elasticsearch.xcontent.XContentBuilder;
import org.elasticsearch.xcontent.XContentParser;

import java.io.IOException;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The feature-weight tables of the cluster, by name: custom metadata of the cluster state, persisted with it (so tables
 * survive a full restart) and present on every node. Immutable; a change is a new instance.
 */
public final class WeightsMetadata extends CompatProjectCustom {

    public static final String TYPE = "simhash_weights";
    public static final WeightsMetadata EMPTY = new WeightsMetadata(Map.of());

    private final Map<String, WeightsTable> tables;

    public WeightsMetadata(Map<String, WeightsTable> tables) {
        this.tables = Collections.unmodifiableMap(new TreeMap<>(tables));
    }

    public Map<String, WeightsTable> tables() {
        return tables;
    }

    /** Features in all tables together. */
    public long totalFeatures() {
        return tables.values().stream().mapToLong(WeightsTable::size).sum();
    }

    /** Bytes of all tables together ({@link WeightsTable#bytes()}). */
    public long totalBytes() {
        return tables.values().stream().mapToLong(WeightsTable::bytes).sum();
    }

    public WeightsMetadata with(WeightsTable table) {
        Map<String, WeightsTable> m = new HashMap<>(tables);
        m.put(table.name(), table);
        return new WeightsMetadata(m);
    }

    public WeightsMetadata without(String name) {
        Map<String, WeightsTable> m = new HashMap<>(tables);
        m.remove(name);
        return new WeightsMetadata(m);
    }

    public WeightsMetadata(StreamInput in) throws IOException {
        StreamInput body = WireEnvelope.read(in).in();
        int n = body.readVInt();
        Map<String, WeightsTable> m = new HashMap<>();
        for (int t = 0; t < n; t++) {
            WeightsTable table = readTable(body);
            m.put(table.name(), table);
        }
        this.tables = Collections.unmodifiableMap(new TreeMap<>(m));
    }

    static WeightsTable readTable(StreamInput in) throws IOException {
        StreamInput body = WireEnvelope.read(in).in();
        String name = body.readString();
        FingerprintSpec.Version version = FingerprintSpec.Version.fromOption(body.readString());
        double defaultWeight = body.readDouble();
        int size = body.readVInt();
        Map<String, Double> factors = new HashMap<>(Math.max(16, size * 4 / 3 + 1));
        for (int i = 0; i < size; i++) {
            factors.put(body.readString(), body.readDouble());
        }
        Map<String, Object> source = body.readGenericMap();
        long created = body.readLong();
        return new WeightsTable(name, version, factors, defaultWeight, source, created);
    }

    static void writeTable(StreamOutput out, WeightsTable table) throws IOException {
        WireEnvelope.write(out, body -> {
            body.writeString(table.name());
            body.writeString(table.version().optionName());
            body.writeDouble(table.defaultWeight());
            body.writeVInt(table.size());
            for (int i = 0; i < table.size(); i++) {
                body.writeString(table.feature(i));
                body.writeDouble(table.factor(i));
            }
            body.writeGenericMap(table.source());
            body.writeLong(table.createdMillis());
        });
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        WireEnvelope.write(out, body -> {
            body.writeVInt(tables.size());
            for (WeightsTable t : tables.values()) {
                writeTable(body, t);
            }
        });
    }

    @Override
    public String getWriteableName() {
        return TYPE;
    }

    @Override
    public TransportVersion getMinimalSupportedVersion() {
        // any node with the plugin reads it; fromId(0) rather than zero(), which early patches (8.19.0, 9.0.0) lack
        return TransportVersion.fromId(0);
    }

    /** A table as persisted and as GET shows it with all features. */
    static void tableToXContent(XContentBuilder b, WeightsTable t, int featureLimit) throws IOException {
        b.field("version", t.version().optionName());
        b.field("default_weight", t.defaultWeight());
        b.field("feature_count", t.size());
        b.field("digest", t.digest());
        b.field("created_millis", t.createdMillis());
        b.field("source", t.source());
        if (featureLimit > 0) {
            b.startObject("features");
            for (int i = 0; i < Math.min(featureLimit, t.size()); i++) {
                b.field(t.feature(i), t.factor(i));
            }
            b.endObject();
        }
    }

    @Override
    public Iterator<? extends ToXContent> toXContentChunked(ToXContent.Params params) {
        // one chunk per table: a table is at most MAX_FEATURES entries
        List<ToXContent> chunks = new java.util.ArrayList<>();
        chunks.add((b, p) -> b.startObject("tables"));
        for (WeightsTable t : tables.values()) {
            chunks.add((b, p) -> {
                b.startObject(t.name());
                tableToXContent(b, t, Integer.MAX_VALUE);
                return b.endObject();
            });
        }
        chunks.add((b, p) -> b.endObject());
        return chunks.iterator();
    }

    /** Reads the persisted form: {@code {"tables": {name: {version, default_weight, created_millis, source, features}}}}. */
    public static WeightsMetadata fromXContent(XContentParser parser) throws IOException {
        Map<String, WeightsTable> tables = new HashMap<>();
        XContentParser.Token token = parser.currentToken() == null ? parser.nextToken() : parser.currentToken();
        if (token == XContentParser.Token.START_OBJECT) {
            token = parser.nextToken();
        }
        for (; token == XContentParser.Token.FIELD_NAME; token = parser.nextToken()) {
            String field = parser.currentName();
            parser.nextToken();
            if (!"tables".equals(field)) {
                parser.skipChildren();
                continue;
            }
            while (parser.nextToken() == XContentParser.Token.FIELD_NAME) {
                String name = parser.currentName();
                parser.nextToken();
                tables.put(name, parseTable(name, parser));
            }
        }
        return new WeightsMetadata(tables);
    }

    private static WeightsTable parseTable(String name, XContentParser parser) throws IOException {
        String version = null;
        double defaultWeight = 1.0;
        long created = 0;
        Map<String, Object> source = Map.of();
        Map<String, Double> features = new HashMap<>();
        while (parser.nextToken() == XContentParser.Token.FIELD_NAME) {
            String field = parser.currentName();
            parser.nextToken();
            switch (field) {
                case "version" -> version = parser.text();
                case "default_weight" -> defaultWeight = parser.doubleValue();
                case "created_millis" -> created = parser.longValue();
                // "digest" is skipped below: it is computed from the table, never trusted from the stored form
                case "source" -> source = parser.map();
                case "features" -> {
                    while (parser.nextToken() == XContentParser.Token.FIELD_NAME) {
                        String feature = parser.currentName();
                        parser.nextToken();
                        features.put(feature, parser.doubleValue());
                    }
                }
                default -> parser.skipChildren();
            }
        }
        return new WeightsTable(name, FingerprintSpec.Version.fromOption(version), features, defaultWeight, source, created);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof WeightsMetadata m && tables.equals(m.tables);
    }

    @Override
    public int hashCode() {
        return tables.hashCode();
    }
}
