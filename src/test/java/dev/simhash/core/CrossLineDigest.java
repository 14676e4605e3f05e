package dev.simhash.core;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.OptionalLong;
import java.util.Properties;

/**
 * The cross-line identity check's pinned values: every text of {@link RandomUnicodeTexts} fingerprinted with simhash-v1
 * (default options), simhash-v2 and sketched with minhash-v1, digested with SHA-256
 * ({@code cross-line-digest.properties}), plus a 16-bit check per text ({@code cross-line-digest-check.bin}) that names
 * the first text whose values differ when the digest does. {@link #main} writes both files; a released fingerprint or
 * sketch version must never make them change, so it is run only when the corpus itself changes.
 */
final class CrossLineDigest {

    static final String PROPERTIES = "/dev/simhash/core/cross-line-digest.properties";
    static final String CHECKS = "/dev/simhash/core/cross-line-digest-check.bin";
    static final int TEXTS = 100_000;
    static final long SEED = 0x63726F73736C696EL; // "crosslin"

    private static final TextFingerprinter V1 = new TextFingerprinter(FeatureAnalyzer.fromOption("default"), FingerprintOptions.DEFAULTS);

    /** Pinned: the digest of all texts, the Unicode version of the JDK that pinned it, and the per-text checks. */
    record Pinned(String sha256, String unicode, byte[] checks) {}

    /** The values of one text, as bytes: v1 and v2 fingerprints (8 bytes each, or one 0 byte for none), then the sketch. */
    static byte[] values(String text) {
        OptionalLong v1 = V1.fingerprint(text);
        OptionalLong v2 = SimHashV2.fingerprint(text, 1);
        byte[] sketch = MinHashSketch.V1.sketch(text);
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(90);
        for (OptionalLong fp : new OptionalLong[] {v1, v2}) {
            if (fp.isPresent()) {
                out.write(1);
                long v = fp.getAsLong();
                for (int s = 56; s >= 0; s -= 8) {
                    out.write((int) (v >>> s));
                }
            } else {
                out.write(0);
            }
        }
        out.write(sketch == null ? 0 : 1);
        if (sketch != null) {
            out.writeBytes(sketch);
        }
        return out.toByteArray();
    }

    /** A 16-bit check of one text's values (FNV-1a folded): enough to point at the first text that differs. */
    static int check(byte[] values) {
        int h = 0x811C9DC5;
        for (byte b : values) {
            h = (h ^ (b & 0xFF)) * 0x01000193;
        }
        return (h ^ (h >>> 16)) & 0xFFFF;
    }

    static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The Unicode version of this JDK's character data, as far as the fingerprints can tell: NFKC and lowercase mappings
     * come from it, so a JDK with another version may fingerprint recently assigned characters differently.
     */
    static String jdkUnicode() {
        if (Character.isDefined(0x10D40)) { // Garay, Unicode 16.0
            return "16.0+";
        }
        if (Character.isDefined(0x2EBF0)) { // CJK Extension I, Unicode 15.1
            return "15.1";
        }
        return Character.isDefined(0x31350) ? "15.0" : "before 15.0";
    }

    static Pinned load() {
        Properties p = new Properties();
        try (InputStream in = CrossLineDigest.class.getResourceAsStream(PROPERTIES);
             InputStream checks = CrossLineDigest.class.getResourceAsStream(CHECKS)) {
            if (in == null || checks == null) {
                throw new IllegalStateException("missing " + PROPERTIES + " or " + CHECKS);
            }
            p.load(new java.io.InputStreamReader(in, StandardCharsets.UTF_8));
            if (Integer.parseInt(p.getProperty("texts")) != TEXTS || Long.parseUnsignedLong(p.getProperty("seed"), 16) != SEED) {
                throw new IllegalStateException(PROPERTIES + " was written for another corpus");
            }
            return new Pinned(p.getProperty("sha256"), p.getProperty("unicode"), checks.readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Writes both files from this JDK and the Elasticsearch line on the class path: {@code main <test resources dir>}. */
    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args[0], "dev", "simhash", "core");
        RandomUnicodeTexts texts = new RandomUnicodeTexts(SEED);
        MessageDigest digest = sha256();
        byte[] checks = new byte[2 * TEXTS];
        for (int i = 0; i < TEXTS; i++) {
            byte[] v = values(texts.text(i));
            digest.update(v);
            int c = check(v);
            checks[2 * i] = (byte) (c >>> 8);
            checks[2 * i + 1] = (byte) c;
        }
        String props = "# The cross-line identity check (CrossLineDigestTest): never edit by hand; see CrossLineDigest.\n"
            + "texts=" + TEXTS + "\nseed=" + Long.toHexString(SEED) + "\nunicode=" + jdkUnicode()
            + "\nsha256=" + HexFormat.of().formatHex(digest.digest()) + "\n";
        Files.writeString(dir.resolve("cross-line-digest.properties"), props);
        Files.write(dir.resolve("cross-line-digest-check.bin"), checks);
        System.out.print(props);
    }

    private CrossLineDigest() {}
}
