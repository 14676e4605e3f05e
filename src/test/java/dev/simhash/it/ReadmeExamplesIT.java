package dev.simhash.it;

import dev.simhash.compat.CompatTestNode;
import dev.simhash.it.support.RealNodeExtension;
import dev.simhash.it.support.Rest;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Keeps the README true: every console-style request in its code blocks ({@code GET path} followed
 * by an optional JSON body) runs, in order, against the real node and must succeed; every search
 * ({@code _search}, {@code _simhash/fold}) must find at least one hit on the documents the README
 * indexes before it, so that no example shows a query that finds nothing.
 */
@ExtendWith(RealNodeExtension.class)
class ReadmeExamplesIT {

    private static final Pattern REQUEST_LINE = Pattern.compile("^(GET|PUT|POST|DELETE) (\\S+)$");

    record Example(int line, String method, String path, String body) {}

    static List<Example> examples(List<String> readme) {
        List<Example> out = new ArrayList<>();
        boolean inBlock = false;
        Example pending = null;
        StringBuilder body = new StringBuilder();
        for (int i = 0; i < readme.size(); i++) {
            String line = readme.get(i);
            if (line.startsWith("```")) {
                if (inBlock && pending != null) {
                    out.add(new Example(pending.line(), pending.method(), pending.path(), body.toString().trim()));
                    pending = null;
                }
                inBlock = !inBlock;
                continue;
            }
            if (!inBlock) {
                continue;
            }
            Matcher m = REQUEST_LINE.matcher(line);
            if (m.matches()) {
                if (pending != null) {
                    out.add(new Example(pending.line(), pending.method(), pending.path(), body.toString().trim()));
                }
                pending = new Example(i + 1, m.group(1), m.group(2), null);
                body.setLength(0);
            } else if (pending != null) {
                body.append(line).append('\n');
            }
        }
        return out;
    }

    @Test
    void everyReadmeRequestSucceeds(Rest rest) throws IOException {
        List<Example> examples = examples(Files.readAllLines(Path.of("README.md"), StandardCharsets.UTF_8));
        assertTrue(examples.size() >= 10, "README examples found: " + examples.size());
        int searches = 0;
        try {
            for (Example e : examples) {
                if (!CompatTestNode.SCRIPT_RESCORER && e.body().contains("\"rescore\"")) {
                    continue; // the README says the script rescorer needs Elasticsearch 9
                }
                String path = e.path().startsWith("/") ? e.path() : "/" + e.path();
                Rest.Answer a = rest.call(e.method(), path, e.body().isEmpty() ? null : e.body());
                assertEquals(2, a.status() / 100, "README line " + e.line() + ": " + e.method() + " " + e.path() + " -> " + a);
                if (path.contains("_search") || path.contains("_simhash/fold")) {
                    assertEquals(0, ((Number) a.at("_shards.failed")).intValue(), "README line " + e.line() + ": " + a);
                    List<?> hits = a.at("hits.hits");
                    assertTrue(hits != null && !hits.isEmpty(), "README line " + e.line() + ": " + e.method() + " " + e.path()
                        + " finds no hit on the documents the README indexes before it -> " + a);
                    searches++;
                }
            }
            assertTrue(searches >= 10, "README searches checked for hits: " + searches);
            System.out.println("README examples run: " + examples.size() + ", searches with hits: " + searches);
        } finally {
            for (Example e : examples) {
                if (e.method().equals("PUT") && !e.path().contains("/")) {
                    rest.delete("/" + e.path());
                }
                if (e.method().equals("PUT") && e.path().startsWith("_ingest/pipeline/")) {
                    rest.delete("/" + e.path());
                }
                if (e.method().equals("PUT") && e.path().startsWith("_index_template/")) {
                    rest.delete("/" + e.path());
                }
            }
        }
    }
}
