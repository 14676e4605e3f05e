package dev.simhash.it;

import dev.simhash.compat.CompatTestNode;
import dev.simhash.it.support.RealNodeExtension;
import dev.simhash.it.support.Rest;

import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Keeps the documentation true: every console-style request in README.md and in every page of docs/ runs against a
 * real node, and the response documented after it is compared with the real one.
 *
 * <p>The conventions (also in CONTRIBUTING.md, "Documentation examples"):
 * <ul>
 *   <li>A request is a line {@code METHOD path} inside a fenced code block, followed by an optional JSON body up to the
 *       next request line or the end of the block. Pages run in order: README.md, then the pages in the order
 *       docs/README.md links them; every page of docs/ must be linked from there.</li>
 *   <li>A fenced {@code json} block with no request line that comes right after a request block (only prose between)
 *       is the response of that block's last request. Every key it shows must be in the real response with a matching
 *       value; keys it leaves out are not checked. {@code "..."} as a value matches anything; a bare {@code ...} in an
 *       object stands for omitted keys, in an array for omitted elements (an array without it must have exactly the
 *       elements shown, in order); a string ending in {@code ...} matches any string that starts with the rest, one
 *       that also starts with {@code ...} any string that contains the rest.
 *       Volatile fields ({@link #VOLATILE}) are never compared. Numbers with a fraction match within 1e-4.</li>
 *   <li>Markers (HTML comments, invisible when rendered) on the line before a fence:
 *       {@code <!-- skip: reason -->} runs none of the block's requests (for requests that need what the test node
 *       lacks, e.g. the reindex module), {@code <!-- status: 400 -->} expects that status from the block's
 *       requests instead of 2xx, {@code <!-- not-a-response: reason -->} exempts a json block from comparison.</li>
 *   <li>A search ({@code _search}, {@code _simhash/fold}) that documents no response must find at least one hit.</li>
 *   <li>README's {@code curl} commands (one block, for readers without a console) must be its console requests, in
 *       order: they are compared with them, not run.</li>
 * </ul>
 */
@ExtendWith(RealNodeExtension.class)
class ReadmeExamplesIT {

    private static final Pattern REQUEST_LINE = Pattern.compile("^(GET|PUT|POST|DELETE|HEAD) (\\S+)$");
    private static final Pattern MARKER = Pattern.compile("^<!--\\s*(skip|status|not-a-response):\\s*(.*?)\\s*-->$");
    /** A line of README's curl block: the console request {@code METHOD path} and its body, against {@code $ES}. */
    private static final Pattern CURL = Pattern.compile(
        "^curl -s -X (GET|PUT|POST|DELETE|HEAD) \"\\$ES/([^\"]+)\"(?: -H 'Content-Type: application/json' -d '(.*)')?$");
    private static final Pattern DOC_LINK = Pattern.compile("\\]\\(([^)#\\s]+\\.md)(#[^)]*)?\\)");
    private static final String ELLIPSIS = "...";
    /** Fields whose values change from run to run: times, task and report ids, sequence numbers. */
    static final Set<String> VOLATILE = Set.of("took", "took_ms", "phases_ms", "_seq_no", "_primary_term", "_version",
        "task", "id", "start_time_in_millis", "expiration_time_in_millis", "running_time_in_nanos", "peak_memory_bytes");
    private static final ObjectMapper JSON = new ObjectMapper();

    record Example(String page, int line, String method, String path, String body, String skip, int status,
                   String response, int responseLine) {
        String where() {
            return page + ":" + line + " " + method + " " + path;
        }

        Example withResponse(String json, int atLine) {
            return new Example(page, line, method, path, body, skip, status, json, atLine);
        }
    }

    /** The pages in execution order: README.md, docs/README.md, then the pages it links, in link order. */
    static List<Path> pages(Path root) throws IOException {
        List<Path> out = new ArrayList<>();
        out.add(root.resolve("README.md"));
        Path index = root.resolve("docs/README.md");
        out.add(index);
        Set<Path> linked = new LinkedHashSet<>();
        Matcher m = DOC_LINK.matcher(Files.readString(index, StandardCharsets.UTF_8));
        while (m.find()) {
            Path p = index.getParent().resolve(m.group(1)).normalize();
            if (p.startsWith(root.resolve("docs")) && !p.equals(index)) {
                linked.add(p);
            }
        }
        Set<Path> all = new TreeSet<>();
        try (Stream<Path> s = Files.walk(root.resolve("docs"))) {
            s.filter(p -> p.toString().endsWith(".md")).forEach(p -> all.add(p.normalize()));
        }
        all.remove(index);
        Set<Path> unlinked = new TreeSet<>(all);
        unlinked.removeAll(linked);
        assertTrue(unlinked.isEmpty(), "pages of docs/ that docs/README.md does not link: " + unlinked);
        for (Path p : linked) {
            assertTrue(Files.exists(p), "docs/README.md links a page that does not exist: " + p);
        }
        out.addAll(linked);
        return out;
    }

    static List<Example> examples(String page, List<String> lines) {
        List<Example> out = new ArrayList<>();
        boolean inBlock = false;
        String info = "";
        String marker = null;
        String markerValue = null;
        String blockMarker = null;
        String blockMarkerValue = null;
        int blockStart = 0;
        List<Example> blockRequests = new ArrayList<>();
        boolean lastBlockWasRequests = false;
        Example pending = null;
        StringBuilder body = new StringBuilder();
        StringBuilder block = new StringBuilder();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.startsWith("```")) {
                if (!inBlock) {
                    inBlock = true;
                    info = line.substring(3).trim().toLowerCase(Locale.ROOT);
                    blockMarker = marker;
                    blockMarkerValue = markerValue;
                    marker = null;
                    blockStart = i + 1;
                    blockRequests.clear();
                    block.setLength(0);
                    continue;
                }
                inBlock = false;
                if (pending != null) {
                    blockRequests.add(finish(pending, body));
                    pending = null;
                }
                if (!blockRequests.isEmpty()) {
                    out.addAll(blockRequests);
                    lastBlockWasRequests = true;
                } else {
                    boolean response = info.startsWith("json") && lastBlockWasRequests
                        && !"not-a-response".equals(blockMarker) && !out.isEmpty();
                    if (response) {
                        Example last = out.remove(out.size() - 1);
                        out.add(last.withResponse(block.toString(), blockStart));
                    }
                    lastBlockWasRequests = false;
                }
                continue;
            }
            if (!inBlock) {
                Matcher mk = MARKER.matcher(line.trim());
                if (mk.matches()) {
                    marker = mk.group(1);
                    markerValue = mk.group(2);
                } else if (!line.isBlank()) {
                    marker = null;
                }
                continue;
            }
            block.append(line).append('\n');
            Matcher m = REQUEST_LINE.matcher(line);
            if (m.matches()) {
                if (pending != null) {
                    blockRequests.add(finish(pending, body));
                }
                String skip = "skip".equals(blockMarker) ? blockMarkerValue : null;
                int status = "status".equals(blockMarker) ? Integer.parseInt(blockMarkerValue) : 0;
                pending = new Example(page, i + 1, m.group(1), m.group(2), null, skip, status, null, 0);
                body.setLength(0);
            } else if (pending != null) {
                body.append(line).append('\n');
            }
        }
        return out;
    }

    private static Example finish(Example e, StringBuilder body) {
        return new Example(e.page(), e.line(), e.method(), e.path(), body.toString().trim(), e.skip(), e.status(), null, 0);
    }

    @Test
    void everyDocumentedRequestAnswersAsDocumented(Rest rest) throws IOException {
        Path root = Path.of("").toAbsolutePath();
        List<Example> examples = new ArrayList<>();
        for (Path page : pages(root)) {
            examples.addAll(examples(root.relativize(page).toString(), Files.readAllLines(page, StandardCharsets.UTF_8)));
        }
        assertTrue(examples.size() >= 60, "documented requests found: " + examples.size());
        int searches = 0;
        int responses = 0;
        List<String> skipped = new ArrayList<>();
        List<String> failures = new ArrayList<>();
        try {
            for (Example e : examples) {
                if (e.skip() != null) {
                    skipped.add(e.where() + " (" + e.skip() + ")");
                    continue;
                }
                if (!CompatTestNode.SCRIPT_RESCORER && e.body().contains("\"rescore\"")) {
                    skipped.add(e.where() + " (the script rescorer needs Elasticsearch 9)");
                    continue;
                }
                String path = e.path().startsWith("/") ? e.path() : "/" + e.path();
                // a bulk's body is NDJSON: one line per action or document, the last one ended by a newline
                Rest.Answer a = path.contains("_bulk") ? rest.bulk(path, e.body() + "\n")
                    : rest.call(e.method(), path, e.body().isEmpty() ? null : e.body());
                boolean statusOk = e.status() != 0 ? a.status() == e.status() : a.status() / 100 == 2;
                if (!statusOk) {
                    failures.add(e.where() + ": expected status " + (e.status() != 0 ? e.status() : "2xx") + " -> " + a);
                    continue;
                }
                if (e.response() != null) {
                    Object expected = parseDocumented(e.response(), e);
                    Object actual = JSON.readValue(a.body(), Object.class);
                    List<String> problems = new ArrayList<>();
                    compare("", expected, actual, problems);
                    if (!problems.isEmpty()) {
                        failures.add(e.where() + ": the response documented at line " + e.responseLine() + " does not match:\n  "
                            + String.join("\n  ", problems) + "\nreal response: " + a.body());
                    }
                    responses++;
                }
                if (e.status() == 0 && (path.contains("_search") || path.contains("_simhash/fold"))) {
                    Number failed = a.at("_shards.failed");
                    if (failed == null || failed.intValue() != 0) {
                        failures.add(e.where() + ": shards failed -> " + a);
                    }
                    List<?> hits = a.at("hits.hits");
                    if (e.response() == null && (hits == null || hits.isEmpty())) {
                        failures.add(e.where() + " finds no hit on the documents indexed before it -> " + a);
                    }
                    searches++;
                }
            }
            if (!failures.isEmpty()) {
                fail(failures.size() + " documented requests do not answer as documented:\n" + String.join("\n\n", failures));
            }
            assertTrue(searches >= 25, "documented searches checked: " + searches);
            assertTrue(responses >= 15, "documented responses compared: " + responses);
            System.out.println("documented requests run: " + (examples.size() - skipped.size()) + ", searches: " + searches
                + ", responses compared: " + responses + ", skipped: " + skipped.size());
            skipped.forEach(s -> System.out.println("  skipped " + s));
        } finally {
            for (Example e : examples) {
                String p = e.path().startsWith("/") ? e.path().substring(1) : e.path();
                if (!e.method().equals("PUT")) {
                    continue;
                }
                if (!p.contains("/") && !p.startsWith("_")) {
                    rest.delete("/" + p);
                } else if (p.startsWith("_ingest/pipeline/") || p.startsWith("_index_template/")
                    || p.startsWith("_simhash/weights/") || p.startsWith("_scripts/")) {
                    rest.delete("/" + p.replaceAll("\\?.*$", ""));
                }
            }
        }
    }

    /**
     * README's curl block (for readers without a console) is checked by equality, not run: its commands are README's
     * console requests, which the test above runs, in the same order, with the same methods, paths and bodies (as JSON).
     */
    @Test
    void readmeCurlCommandsAreItsConsoleRequests() throws IOException {
        List<String> lines = Files.readAllLines(Path.of("").toAbsolutePath().resolve("README.md"), StandardCharsets.UTF_8);
        List<Example> console = examples("README.md", lines);
        List<String> problems = new ArrayList<>();
        List<Example> curls = new ArrayList<>();
        boolean inBlock = false;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.startsWith("```")) {
                inBlock = !inBlock;
            } else if (inBlock && line.startsWith("curl ")) {
                Matcher m = CURL.matcher(line);
                if (!m.matches()) {
                    problems.add("README.md:" + (i + 1) + ": not in the form curl -s -X METHOD \"$ES/path\" [-H 'Content-Type: "
                        + "application/json' -d 'BODY']: " + line);
                    continue;
                }
                curls.add(new Example("README.md", i + 1, m.group(1), m.group(2), m.group(3) == null ? "" : m.group(3), null, 0,
                    null, 0));
            }
        }
        assertTrue(curls.size() >= 10, "curl commands in README.md: " + curls.size());
        for (int i = 0; i < Math.max(curls.size(), console.size()); i++) {
            Example c = i < curls.size() ? curls.get(i) : null;
            Example r = i < console.size() ? console.get(i) : null;
            if (c == null || r == null) {
                problems.add(c == null ? r.where() + " has no curl command" : c.where() + ": a curl command with no console request");
            } else if (!c.method().equals(r.method()) || !c.path().equals(r.path())
                || !JSON.readTree(c.body().isEmpty() ? "null" : c.body()).equals(JSON.readTree(r.body().isEmpty() ? "null" : r.body()))) {
                problems.add(c.where() + " is not the console request " + r.where() + " (method, path or body differ)");
            }
        }
        assertEquals(List.of(), problems);
    }

    @Test
    void documentedResponsesAreCompared() throws IOException {
        // the comparison itself: placeholders, omitted keys and elements, volatile fields, wrong values caught
        Example e = new Example("t", 1, "GET", "x", "", null, 0, null, 0);
        Object doc = parseDocumented("{ \"took\": 5, \"hits\": { \"hits\": [ { \"_id\": \"1\", ... }, ... ] }, "
            + "\"msg\": \"starts with...\", \"m\": \"...in the middle...\", \"n\": 0.9062, \"x\": \"...\", ... }", e);
        Object real = JSON.readValue("{\"took\": 99, \"hits\": {\"hits\": [{\"_id\": \"1\", \"_score\": 1.0}, {\"_id\": \"2\"}]},"
            + " \"msg\": \"starts with this\", \"m\": \"text in the middle of it\", \"n\": 0.90625, \"x\": [1], \"y\": 2}", Object.class);
        List<String> problems = new ArrayList<>();
        compare("", doc, real, problems);
        assertEquals(List.of(), problems);
        Object exact = parseDocumented("{ \"hits\": { \"hits\": [ { \"_id\": \"1\" } ] }, \"n\": 0.8 }", e);
        compare("", exact, real, problems);
        assertEquals(2, problems.size(), problems.toString());
    }

    /** Parses a documented response: JSON, plus bare {@code ...} for omitted keys, elements or values. */
    static Object parseDocumented(String text, Example e) {
        StringBuilder out = new StringBuilder();
        List<Character> stack = new ArrayList<>();
        boolean inString = false;
        int omitted = 0;
        char prev = ' ';
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (inString) {
                out.append(c);
                if (c == '\\') {
                    out.append(text.charAt(++i));
                } else if (c == '"') {
                    inString = false;
                }
                continue;
            }
            if (c == '"') {
                inString = true;
            } else if (c == '{' || c == '[') {
                stack.add(c);
            } else if (c == '}' || c == ']') {
                stack.remove(stack.size() - 1);
            } else if (text.startsWith(ELLIPSIS, i)) {
                boolean inArray = !stack.isEmpty() && stack.get(stack.size() - 1) == '[';
                out.append(prev == ':' || inArray ? "\"...\"" : "\"...omitted-" + (omitted++) + "\": \"...\"");
                i += ELLIPSIS.length() - 1;
                prev = '"';
                continue;
            }
            out.append(c);
            if (!Character.isWhitespace(c)) {
                prev = c;
            }
        }
        try {
            return JSON.readValue(out.toString(), Object.class);
        } catch (IOException ex) {
            throw new AssertionError(e.where() + ": the documented response is not JSON (with ... placeholders): " + ex.getMessage());
        }
    }

    static void compare(String at, Object expected, Object actual, List<String> problems) {
        if (ELLIPSIS.equals(expected)) {
            return;
        }
        if (expected instanceof Map<?, ?> em) {
            if (!(actual instanceof Map<?, ?> am)) {
                problems.add(at + ": expected an object, got " + actual);
                return;
            }
            for (Map.Entry<?, ?> en : em.entrySet()) {
                String key = (String) en.getKey();
                if (key.startsWith("...omitted-") || VOLATILE.contains(key)) {
                    continue;
                }
                if (!am.containsKey(key)) {
                    problems.add(at + "." + key + ": missing from the real response");
                    continue;
                }
                compare(at + "." + key, en.getValue(), am.get(key), problems);
            }
            return;
        }
        if (expected instanceof List<?> el) {
            if (!(actual instanceof List<?> al)) {
                problems.add(at + ": expected an array, got " + actual);
                return;
            }
            boolean openEnd = !el.isEmpty() && ELLIPSIS.equals(el.get(el.size() - 1));
            boolean openStart = !el.isEmpty() && ELLIPSIS.equals(el.get(0)) && !openEnd;
            List<?> shown = el.subList(openStart ? 1 : 0, openEnd ? el.size() - 1 : el.size());
            if (openEnd || openStart ? al.size() < shown.size() : al.size() != shown.size()) {
                problems.add(at + ": expected " + (openEnd || openStart ? "at least " : "") + shown.size()
                    + " elements, got " + al.size());
                return;
            }
            int offset = openStart ? al.size() - shown.size() : 0;
            for (int i = 0; i < shown.size(); i++) {
                compare(at + "[" + (i + offset) + "]", shown.get(i), al.get(i + offset), problems);
            }
            return;
        }
        if (expected instanceof String es && es.length() > 2 * ELLIPSIS.length() && es.startsWith(ELLIPSIS)
            && es.endsWith(ELLIPSIS) && actual instanceof String as) {
            if (!as.contains(es.substring(ELLIPSIS.length(), es.length() - ELLIPSIS.length()))) {
                problems.add(at + ": expected a string containing [" + es + "], got [" + as + "]");
            }
            return;
        }
        if (expected instanceof String es && es.endsWith(ELLIPSIS) && actual instanceof String as) {
            if (!as.startsWith(es.substring(0, es.length() - ELLIPSIS.length()))) {
                problems.add(at + ": expected a string starting with [" + es + "], got [" + as + "]");
            }
            return;
        }
        if (expected instanceof Number en && actual instanceof Number an) {
            double x = en.doubleValue();
            double y = an.doubleValue();
            boolean integral = en instanceof Integer || en instanceof Long || en instanceof java.math.BigInteger;
            boolean ok = integral && (an instanceof Integer || an instanceof Long || an instanceof java.math.BigInteger)
                ? en.longValue() == an.longValue()
                : Math.abs(x - y) <= 1e-4 * Math.max(1.0, Math.abs(x));
            if (!ok) {
                problems.add(at + ": expected " + expected + ", got " + actual);
            }
            return;
        }
        if (expected == null ? actual != null : !expected.equals(actual)) {
            problems.add(at + ": expected " + expected + ", got " + actual);
        }
    }
}
