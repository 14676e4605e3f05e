package dev.simhash.weights;

import dev.simhash.core.FeatureWeights;
import dev.simhash.core.FingerprintSpec;
import dev.simhash.core.SimHash;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.LongConsumer;

/**
 * One named, immutable feature-weight table: a factor for each listed feature, {@code default_weight} for every other, the
 * fingerprint version whose features it holds, and where it came from. Validated on construction (the limits keep the
 * cluster state, where tables live, small; the byte limits are checked when a table is made, {@link #checkBytes()}). Plain Java; looked up with an open-addressing index, no boxing.
 */
public final class WeightsTable implements FeatureWeights {

    /** Most features in one table: every table is in the cluster state, sent to every node and kept in every node's memory. */
    public static final int MAX_FEATURES = 200_000;
    /** Most features in all tables of the cluster together (about 10-20 MB of cluster state at typical feature lengths). */
    public static final int MAX_TOTAL_FEATURES = 1_000_000;
    /** Longest feature, in characters (v2 tokens are at most 255, bigrams 511). */
    public static final int MAX_FEATURE_LENGTH = 1_000;
    /** Largest factor: keeps every weight times factor finite. */
    public static final double MAX_FACTOR = 1_000_000;
    /**
     * Most bytes in one table ({@link #bytes()}): the feature count alone does not bound the cluster state, since features
     * may be long; a table is sent to every node, persisted and read again at every start.
     */
    public static final long MAX_BYTES = 8L * 1024 * 1024;
    /** Most bytes in all tables of the cluster together. */
    public static final long MAX_TOTAL_BYTES = 16L * 1024 * 1024;
    /** Bytes counted for each factor (a double). */
    static final int FACTOR_BYTES = Double.BYTES;

    private final String name;
    private final FingerprintSpec.Version version;
    private final double defaultWeight;
    /** Sorted, distinct. */
    private final String[] features;
    private final double[] factors;
    /** slot -> index + 1, 0 empty; at most half full. */
    private final int[] slots;
    private final Map<String, Object> source;
    private final long createdMillis;
    private final long bytes;
    /** Computed on first use: tables read with the cluster state are many, digests are asked for when fields are made. */
    private volatile String digest;

    /**
     * @param factors     feature -> factor; each a finite number in [0, {@link #MAX_FACTOR}]
     * @param source      how the table was made (e.g. {@code uploaded}, or the index, field and sample), shown by GET
     * @throws IllegalArgumentException naming the offending part ({@code [features]}, {@code [default_weight]}, the name)
     */
    public WeightsTable(String name, FingerprintSpec.Version version, Map<String, ? extends Number> factors, double defaultWeight,
                        Map<String, Object> source, long createdMillis) {
        String reason = FeatureWeights.invalidNameReason(name);
        if (reason != null) {
            throw new IllegalArgumentException("invalid feature-weight table name: " + reason);
        }
        this.name = name;
        this.version = Objects.requireNonNull(version, "[version] is required");
        checkFactor("[default_weight]", defaultWeight);
        this.defaultWeight = defaultWeight;
        if (factors.size() > MAX_FEATURES) {
            throw new IllegalArgumentException("[features] has " + factors.size() + " features, a table holds at most " + MAX_FEATURES
                + " (tables live in the cluster state); keep the most frequent or raise [min_df]");
        }
        String[] f = factors.keySet().toArray(new String[0]);
        Arrays.sort(f);
        double[] w = new double[f.length];
        long b = 0;
        for (int i = 0; i < f.length; i++) {
            if (f[i] == null || f[i].isEmpty()) {
                throw new IllegalArgumentException("[features] a feature must be a non-empty string");
            }
            if (f[i].length() > MAX_FEATURE_LENGTH) {
                throw new IllegalArgumentException("[features] feature [" + SimHash.abbreviate(f[i]) + "] is longer than "
                    + MAX_FEATURE_LENGTH + " characters");
            }
            Number n = factors.get(f[i]);
            if (n == null) {
                throw new IllegalArgumentException("[features] factor of [" + SimHash.abbreviate(f[i]) + "] is missing");
            }
            w[i] = n.doubleValue();
            checkFactor("[features] factor of [" + SimHash.abbreviate(f[i]) + "]", w[i]);
            b += utf8Length(f[i]) + FACTOR_BYTES;
        }
        this.bytes = b;
        this.features = f;
        this.factors = w;
        int capacity = Integer.highestOneBit(Math.max(4, f.length * 2 + 1)) << 1;
        int[] s = new int[capacity];
        int mask = capacity - 1;
        for (int i = 0; i < f.length; i++) {
            int j = spread(f[i].hashCode()) & mask;
            while (s[j] != 0) {
                j = (j + 1) & mask;
            }
            s[j] = i + 1;
        }
        this.slots = s;
        this.source = source == null ? Map.of() : Map.copyOf(source);
        this.createdMillis = createdMillis;
    }

    /** The number of bytes of the string in UTF-8 (unpaired surrogates count as the 3 bytes of their replacement). */
    public static long utf8Length(String s) {
        long n = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                n += 1;
            } else if (c < 0x800) {
                n += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                n += 4;
                i++;
            } else {
                n += 3;
            }
        }
        return n;
    }

    /**
     * Refuses a new table over {@link #MAX_BYTES}. Checked when a table is made, not when one is read back from the cluster
     * state, so that a lower limit never makes stored tables unreadable.
     *
     * @throws IllegalArgumentException naming {@code [features]} with the table's size and the limit
     */
    public void checkBytes() {
        if (bytes > MAX_BYTES) {
            throw new IllegalArgumentException("[features] table [" + name + "] holds " + bytes + " bytes (UTF-8 bytes of its " + features.length
                + " features + " + FACTOR_BYTES + " per factor), a table holds at most " + MAX_BYTES + " bytes (tables live in the "
                + "cluster state); keep fewer or shorter features (e.g. a lower [max_features] or a higher [min_df])");
        }
    }

    private static void checkFactor(String what, double v) {
        if (!(v >= 0 && v <= MAX_FACTOR)) {
            throw new IllegalArgumentException(what + " must be a finite number between 0 and " + (long) MAX_FACTOR + ", got [" + v + "]");
        }
    }

    private static int spread(int h) {
        return h ^ (h >>> 16);
    }

    @Override
    public double applyAsDouble(String feature) {
        int mask = slots.length - 1;
        for (int j = spread(feature.hashCode()) & mask, id; (id = slots[j] - 1) >= 0; j = (j + 1) & mask) {
            if (features[id].equals(feature)) {
                return factors[id];
            }
        }
        return defaultWeight;
    }

    public String name() {
        return name;
    }

    @Override
    public FingerprintSpec.Version version() {
        return version;
    }

    public double defaultWeight() {
        return defaultWeight;
    }

    /** Number of listed features. */
    public int size() {
        return features.length;
    }

    /** The i-th listed feature in sorted order. */
    public String feature(int i) {
        return features[i];
    }

    /** The factor of the i-th listed feature. */
    public double factor(int i) {
        return factors[i];
    }

    /** The first {@code limit} listed features with their factors, in sorted order. */
    public Map<String, Double> features(int limit) {
        Map<String, Double> m = new LinkedHashMap<>();
        for (int i = 0; i < Math.min(limit, features.length); i++) {
            m.put(features[i], factors[i]);
        }
        return m;
    }

    public Map<String, Object> source() {
        return source;
    }

    public long createdMillis() {
        return createdMillis;
    }

    /**
     * What the table is, independent of its name: the first {@value #DIGEST_BYTES} bytes of the SHA-256 of its version, its
     * default weight and its sorted features with their factors, in lowercase hex. Equal digests, equal weights; a table
     * deleted and made again with other weights under the same name has another digest. Recorded by the fields that use the
     * table ({@code weights_digest}).
     */
    @Override
    public String digest() {
        String d = digest;
        if (d == null) {
            digest = d = computeDigest();
        }
        return d;
    }

    /** Bytes of the SHA-256 kept in {@link #digest()}: 128 bits, no accidental collision among a cluster's tables. */
    static final int DIGEST_BYTES = 16;

    private String computeDigest() {
        MessageDigest sha;
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
        // length-prefixed fields, so that no two different tables give the same bytes
        ByteBuffer eight = ByteBuffer.allocate(Long.BYTES);
        Consumer<byte[]> bytes = b -> {
            sha.update(eight.clear().putLong(b.length).array());
            sha.update(b);
        };
        LongConsumer number = v -> sha.update(eight.clear().putLong(v).array());
        bytes.accept("simhash-weights".getBytes(StandardCharsets.UTF_8));
        bytes.accept(version.optionName().getBytes(StandardCharsets.UTF_8));
        // + 0.0 makes -0.0 (allowed as a factor) the same as 0.0
        number.accept(Double.doubleToLongBits(defaultWeight + 0.0));
        number.accept(features.length);
        for (int i = 0; i < features.length; i++) {
            bytes.accept(features[i].getBytes(StandardCharsets.UTF_8));
            number.accept(Double.doubleToLongBits(factors[i] + 0.0));
        }
        return HexFormat.of().formatHex(sha.digest(), 0, DIGEST_BYTES);
    }

    /** The table's size as limited: the UTF-8 bytes of its features plus {@value #FACTOR_BYTES} per factor. */
    public long bytes() {
        return bytes;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof WeightsTable t && name.equals(t.name) && version == t.version
            && Double.compare(defaultWeight, t.defaultWeight) == 0 && Arrays.equals(features, t.features)
            && Arrays.equals(factors, t.factors) && source.equals(t.source) && createdMillis == t.createdMillis;
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, version, defaultWeight, Arrays.hashCode(features), createdMillis);
    }

    @Override
    public String toString() {
        return "WeightsTable[" + name + ", " + version.optionName() + ", " + features.length + " features]";
    }
}
