package dev.simhash.core;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * The simhash-v1 golden-vector file (src/test/resources/dev/simhash/core/golden-simhash-v1.json):
 * reading it, and (via {@link #main}) filling in expected values with the naive reference. Other
 * test layers (filter, processor, real node) reuse {@link #load()} to prove they agree.
 */
public final class GoldenVectors {

    public static final String RESOURCE = "/dev/simhash/core/golden-simhash-v1.json";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** One case: either text with settings, or explicitly weighted features; expected hex or null (no fingerprint). */
    public record Case(String id, String text, String analyzer, int shingleSize, String weighting, int minFeatures,
                       Map<String, Double> features, String expected) {
        public boolean weighted() {
            return features != null;
        }

        public FingerprintOptions options() {
            return new FingerprintOptions(shingleSize, Weighting.fromOption(weighting), minFeatures);
        }
    }

    private GoldenVectors() {}

    public static List<Case> load() {
        try (InputStream in = GoldenVectors.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("missing " + RESOURCE);
            }
            return parse(JSON.readTree(in));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<Case> parse(JsonNode root) {
        if (!"simhash-v1".equals(root.path("algorithm").asText())) {
            throw new IllegalStateException("golden file is not for simhash-v1");
        }
        List<Case> out = new ArrayList<>();
        for (JsonNode c : root.get("cases")) {
            Map<String, Double> features = null;
            if (c.has("features")) {
                features = new LinkedHashMap<>();
                Iterator<Map.Entry<String, JsonNode>> it = c.get("features").fields();
                while (it.hasNext()) {
                    Map.Entry<String, JsonNode> e = it.next();
                    features.put(e.getKey(), e.getValue().asDouble());
                }
            }
            JsonNode expected = c.get("expected");
            out.add(new Case(c.get("id").asText(), c.has("text") ? c.get("text").asText() : null,
                c.path("analyzer").asText("default"), c.path("shingle_size").asInt(1), c.path("weighting").asText("tf"),
                c.path("min_features").asInt(1), features, expected == null || expected.isNull() ? null : expected.asText()));
        }
        return out;
    }

    /** Tokens of a text with a built-in analyzer, read with a plain loop (independent of TextFingerprinter). */
    static List<String> tokens(String analyzer, String text) throws IOException {
        List<String> tokens = new ArrayList<>();
        try (TokenStream ts = FeatureAnalyzer.fromOption(analyzer).analyzer().tokenStream("f", text)) {
            CharTermAttribute term = ts.getAttribute(CharTermAttribute.class);
            ts.reset();
            while (ts.incrementToken()) {
                tokens.add(term.toString());
            }
            ts.end();
        }
        return tokens;
    }

    /**
     * Regenerates the expected values from the naive reference implementation. Run only when adding
     * cases; a changed value for an existing case means the algorithm changed, which v1 forbids.
     */
    public static void main(String[] args) throws IOException {
        Path file = Path.of(args.length > 0 ? args[0] : "src/test/resources" + RESOURCE);
        JsonNode root = JSON.readTree(file.toFile());
        for (JsonNode c : root.get("cases")) {
            OptionalLong fp;
            if (c.has("features")) {
                Map<String, Double> f = new LinkedHashMap<>();
                c.get("features").fields().forEachRemaining(e -> f.put(e.getKey(), e.getValue().asDouble()));
                fp = ReferenceSimHash.fingerprintWeighted(f, c.path("min_features").asInt(1));
            } else {
                fp = ReferenceSimHash.fingerprint(tokens(c.path("analyzer").asText("default"), c.get("text").asText()),
                    c.path("shingle_size").asInt(1), c.path("weighting").asText("tf"), c.path("min_features").asInt(1));
            }
            String value = fp.isPresent() ? SimHash.toHex(fp.getAsLong()) : null;
            if (c.has("expected") && !c.get("expected").isNull() && !c.get("expected").asText().equals(value)) {
                throw new IllegalStateException("case " + c.get("id") + " changed: simhash-v1 must not change");
            }
            ((ObjectNode) c).put("expected", value);
        }
        Files.writeString(file, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n");
    }
}
