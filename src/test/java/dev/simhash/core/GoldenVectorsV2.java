package dev.simhash.core;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * The simhash-v2 golden-vector file (src/test/resources/dev/simhash/core/golden-simhash-v2.json):
 * reading it and (via {@link #main}) filling in expected values with {@link ReferenceSimHashV2}.
 * A case has a {@code text} or {@code texts} (an array read as one token sequence), optional
 * {@code min_features} (default 1) and {@code feature_weights} (feature -> factor, others 1).
 */
public final class GoldenVectorsV2 {

    public static final String RESOURCE = "/dev/simhash/core/golden-simhash-v2.json";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** One case; expected hex or null (no fingerprint). */
    public record Case(String id, List<String> texts, int minFeatures, Map<String, Double> featureWeights, String expected) {}

    private GoldenVectorsV2() {}

    public static List<Case> load() {
        try (InputStream in = GoldenVectorsV2.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("missing " + RESOURCE);
            }
            JsonNode root = JSON.readTree(in);
            if (!"simhash-v2".equals(root.path("algorithm").asText())) {
                throw new IllegalStateException("golden file is not for simhash-v2");
            }
            List<Case> out = new ArrayList<>();
            for (JsonNode c : root.get("cases")) {
                JsonNode e = c.get("expected");
                out.add(new Case(c.get("id").asText(), texts(c), c.path("min_features").asInt(1), weights(c),
                    e == null || e.isNull() ? null : e.asText()));
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static List<String> texts(JsonNode c) {
        List<String> t = new ArrayList<>();
        if (c.has("texts")) {
            c.get("texts").forEach(x -> t.add(x.asText()));
        } else {
            t.add(c.get("text").asText());
        }
        return t;
    }

    static Map<String, Double> weights(JsonNode c) {
        if (!c.has("feature_weights")) {
            return null;
        }
        Map<String, Double> w = new LinkedHashMap<>();
        c.get("feature_weights").fields().forEachRemaining(e -> w.put(e.getKey(), e.getValue().asDouble()));
        return w;
    }

    /**
     * Fills in expected values from the naive reference. Run only when adding cases; a changed value
     * for an existing case means the algorithm changed, which a released version forbids.
     */
    public static void main(String[] args) throws IOException {
        Path file = Path.of(args.length > 0 ? args[0] : "src/test/resources" + RESOURCE);
        JsonNode root = JSON.readTree(file.toFile());
        for (JsonNode c : root.get("cases")) {
            OptionalLong fp = ReferenceSimHashV2.fingerprint(texts(c), c.path("min_features").asInt(1), weights(c));
            String value = fp.isPresent() ? SimHash.toHex(fp.getAsLong()) : null;
            if (c.has("expected") && !c.get("expected").isNull() && !c.get("expected").asText().equals(value)) {
                throw new IllegalStateException("case " + c.get("id") + " changed: simhash-v2 must not change");
            }
            ((ObjectNode) c).put("expected", value);
        }
        Files.writeString(file, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n");
    }
}
