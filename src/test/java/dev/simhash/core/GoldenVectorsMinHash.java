package dev.simhash.core;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The minhash-v1 golden-vector file (src/test/resources/dev/simhash/core/golden-minhash-v1.json): reading it and (via
 * {@link #main}) filling in expected values with {@link ReferenceMinHashV1}. A case has a {@code text} or {@code texts}
 * (an array read as one token sequence); expected is the sketch in hex (byte 0 first), or null for no token.
 */
public final class GoldenVectorsMinHash {

    public static final String RESOURCE = "/dev/simhash/core/golden-minhash-v1.json";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** One case; expected hex or null (no sketch). */
    public record Case(String id, List<String> texts, String expected) {}

    private GoldenVectorsMinHash() {}

    public static List<Case> load() {
        try (InputStream in = GoldenVectorsMinHash.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("missing " + RESOURCE);
            }
            JsonNode root = JSON.readTree(in);
            if (!MinHashSketch.ALGORITHM.equals(root.path("algorithm").asText())) {
                throw new IllegalStateException("golden file is not for " + MinHashSketch.ALGORITHM);
            }
            List<Case> out = new ArrayList<>();
            for (JsonNode c : root.get("cases")) {
                JsonNode e = c.get("expected");
                out.add(new Case(c.get("id").asText(), GoldenVectorsV2.texts(c), e == null || e.isNull() ? null : e.asText()));
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Fills in expected values from the naive reference; with {@code --from-v2} first copies the texts of the simhash-v2
     * golden file that carry no weights. Run only when adding cases: a changed value for an existing case means the
     * sketch changed, which a released version forbids.
     */
    public static void main(String[] args) throws IOException {
        Path file = Path.of("src/test/resources" + RESOURCE);
        ObjectNode root;
        if (Files.exists(file)) {
            root = (ObjectNode) JSON.readTree(file.toFile());
        } else {
            root = JSON.createObjectNode();
            root.put("algorithm", MinHashSketch.ALGORITHM);
            root.putArray("cases");
        }
        ArrayNode cases = (ArrayNode) root.get("cases");
        if (args.length > 0 && args[0].equals("--from-v2")) {
            JsonNode v2 = JSON.readTree(Path.of("src/test/resources" + GoldenVectorsV2.RESOURCE).toFile());
            for (JsonNode c : v2.get("cases")) {
                if (!c.has("feature_weights")) {
                    ObjectNode n = cases.addObject();
                    n.put("id", c.get("id").asText());
                    if (c.has("texts")) {
                        n.set("texts", c.get("texts"));
                    } else {
                        n.put("text", c.get("text").asText());
                    }
                }
            }
        }
        for (JsonNode c : cases) {
            String value = ReferenceMinHashV1.sketchHex(GoldenVectorsV2.texts(c));
            if (c.has("expected") && !c.get("expected").isNull() && !c.get("expected").asText().equals(value)) {
                throw new IllegalStateException("case " + c.get("id") + " changed: " + MinHashSketch.ALGORITHM + " must not change");
            }
            ((ObjectNode) c).put("expected", value);
        }
        Files.writeString(file, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n");
    }
}
