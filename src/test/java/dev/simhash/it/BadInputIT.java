package dev.simhash.it;

import dev.simhash.core.FeatureAnalyzer;
import dev.simhash.core.FingerprintOptions;
import dev.simhash.core.TextFingerprinter;
import dev.simhash.it.support.Fixtures;
import dev.simhash.it.support.RealNodeExtension;
import dev.simhash.it.support.Rest;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static dev.simhash.it.support.Rest.toJson;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Malformed requests to every component answer 400 (404 for a missing document) with a message naming the offending parameter,
 * never 5xx, and the node stays healthy; valid-but-extreme input (huge text, unicode edge cases)
 * is accepted.
 */
@ExtendWith(RealNodeExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BadInputIT {

    static final String BIG = "x".repeat(10 * 1024 * 1024);

    /** One malformed request and the exact status it must get (400 unless documented otherwise). */
    record Case(String name, String method, String path, String body, String mustContain, int status) {
        Case(String name, String method, String path, String body, String mustContain) {
            this(name, method, path, body, mustContain, 400);
        }
    }

    private final Rest rest;
    private final List<Case> cases = new ArrayList<>();

    BadInputIT(Rest rest) {
        this.rest = rest;
    }

    @BeforeAll
    void setUp() {
        rest.delete("/bad-*");
        rest.ok("PUT", "/bad-idx", Fixtures.objectFormIndex(2));
        rest.ok("PUT", "/bad-idx/_doc/with-fp", toJson(Map.of("body", "x", "simhash", Fixtures.storedForm(42L))));
        rest.ok("PUT", "/bad-idx/_doc/no-fp?refresh=true", toJson(Map.of("body", "no fingerprint")));
        rest.ok("PUT", "/_ingest/pipeline/bad-fp", toJson(Map.of("processors", List.of(Map.of("simhash", Map.of("field", "body"))))));
    }

    @AfterAll
    void tearDown() {
        rest.delete("/bad-*");
        rest.delete("/_ingest/pipeline/bad-fp");
    }

    private void filter(String name, String settingsJson, String mustContain) {
        cases.add(new Case("filter: " + name, "PUT", "/bad-filter",
            "{\"settings\": {\"analysis\": {\"filter\": {\"fp\": {\"type\": \"simhash\", " + settingsJson + "}}}}}", mustContain));
    }

    private void pipeline(String name, String optionsJson, String mustContain) {
        cases.add(new Case("processor: " + name, "PUT", "/_ingest/pipeline/bad-new",
            "{\"processors\": [{\"simhash\": {" + optionsJson + "}}]}", mustContain));
    }

    private void document(String name, String sourceJson, String mustContain) {
        cases.add(new Case("document: " + name, "PUT", "/bad-idx/_doc/new?pipeline=bad-fp", sourceJson, mustContain));
    }

    private void query(String name, String simhashJson, String mustContain) {
        cases.add(new Case("query: " + name, "POST", "/bad-idx/_search", "{\"query\": {\"simhash\": {" + simhashJson + "}}}", mustContain));
    }

    private void script(String name, String scriptJson, String mustContain) {
        cases.add(new Case("script: " + name, "POST", "/bad-idx/_search",
            "{\"query\": {\"script_score\": {\"query\": {\"match_all\": {}}, \"script\": " + scriptJson + "}}}", mustContain));
    }

    List<Case> cases() {
        cases.clear();
        filter("unknown output", "\"output\": \"hashes\"", "[output]");
        filter("numeric output", "\"output\": 5", "[output]");
        filter("unknown weighting", "\"weighting\": \"idf\"", "[weighting]");
        filter("empty weighting", "\"weighting\": \"\"", "[weighting]");
        filter("shingle_size 0", "\"shingle_size\": 0", "[shingle_size]");
        filter("shingle_size 9", "\"shingle_size\": 9", "[shingle_size]");
        filter("shingle_size word", "\"shingle_size\": \"two\"", "[shingle_size]");
        filter("shingle_size fraction", "\"shingle_size\": 2.5", "[shingle_size]");
        filter("min_features 0", "\"min_features\": 0", "[min_features]");
        filter("min_features word", "\"min_features\": \"many\"", "[min_features]");
        filter("unknown setting", "\"bits\": 32", "unknown setting [bits]");
        filter("emoji setting name", "\"\uD83D\uDE00\": 1", "unknown setting [");
        cases.add(new Case("tokenizer: unknown setting", "PUT", "/bad-filter",
            "{\"settings\": {\"analysis\": {\"tokenizer\": {\"t\": {\"type\": \"simhash_smartcn\", \"mode\": \"search\"}}}}}",
            "unknown setting [mode]"));
        cases.add(new Case("stop filter: unknown setting", "PUT", "/bad-filter",
            "{\"settings\": {\"analysis\": {\"filter\": {\"s\": {\"type\": \"simhash_smartcn_stop\", \"stopwords\": [\"a\"]}}}}}",
            "unknown setting [stopwords]"));
        cases.add(new Case("analyze: inline bad output", "POST", "/_analyze",
            "{\"tokenizer\": \"simhash_smartcn\", \"filter\": [{\"type\": \"simhash\", \"output\": \"x\"}], \"text\": \"a\"}", "[output]"));
        cases.add(new Case("analyze: inline min_features -1", "POST", "/_analyze",
            "{\"tokenizer\": \"standard\", \"filter\": [{\"type\": \"simhash\", \"min_features\": -1}], \"text\": \"a\"}", "[min_features]"));

        pipeline("missing field", "\"target_field\": \"t\"", "[field]");
        pipeline("empty field", "\"field\": \"\"", "[field]");
        pipeline("numeric field", "\"field\": 123", "[field]");
        pipeline("empty target_field", "\"field\": \"body\", \"target_field\": \"\"", "[target_field]");
        pipeline("unknown weighting", "\"field\": \"body\", \"weighting\": \"idf\"", "[weighting]");
        pipeline("numeric weighting", "\"field\": \"body\", \"weighting\": 1", "[weighting]");
        pipeline("shingle_size 0", "\"field\": \"body\", \"shingle_size\": 0", "[shingle_size]");
        pipeline("shingle_size word", "\"field\": \"body\", \"shingle_size\": \"x\"", "[shingle_size]");
        pipeline("min_features 0", "\"field\": \"body\", \"min_features\": 0", "[min_features]");
        pipeline("min_features fraction", "\"field\": \"body\", \"min_features\": 1.5", "[min_features]");
        pipeline("unknown analyzer", "\"field\": \"body\", \"analyzer\": \"nope\"", "[analyzer]");
        pipeline("numeric analyzer", "\"field\": \"body\", \"analyzer\": 7", "[analyzer]");
        pipeline("ignore_missing string", "\"field\": \"body\", \"ignore_missing\": \"yes\"", "[ignore_missing]");
        pipeline("unknown option", "\"field\": \"body\", \"bits\": 64", "[bits]");
        pipeline("full-width option name", "\"field\": \"body\", \"\uFF46\uFF49\uFF45\uFF4C\uFF44\": 1", "\uFF46\uFF49\uFF45\uFF4C\uFF44");

        document("number", "{\"body\": 12345}", "field [body] must be a string");
        document("boolean", "{\"body\": true}", "field [body] must be a string");
        document("array with a number", "{\"body\": [\"ok\", 7]}", "element [1] is of type [Integer]");
        document("nested array", "{\"body\": [[\"a\"]]}", "element [0] is of type");
        document("negative weight", "{\"body\": {\"a\": 1, \"b\": -1}}", "weight of [b]");
        document("string weight", "{\"body\": {\"a\": \"heavy\"}}", "weight of [a]");
        document("missing field", "{\"title\": \"no body\"}", "[body]");
        document("null field", "{\"body\": null}", "field [body] is null");

        query("malformed hash", "\"field\": \"simhash\", \"hash\": \"xyz\"", "[hash]");
        query("17 hex digits", "\"field\": \"simhash\", \"hash\": \"0123456789abcdef0\"", "[hash]");
        query("full-width digits", "\"field\": \"simhash\", \"hash\": \"\uFF10\uFF11\uFF12\"", "[hash]");
        query("10 MB hash", "\"field\": \"simhash\", \"hash\": \"" + BIG + "\"", "[hash]");
        query("boolean hash", "\"field\": \"simhash\", \"hash\": true", "[hash]");
        query("array hash", "\"field\": \"simhash\", \"hash\": [1, 2]", "[hash]");
        query("object hash", "\"field\": \"simhash\", \"hash\": {}", "[hash]");
        query("hash beyond 64 bits", "\"field\": \"simhash\", \"hash\": 123456789012345678901234", "[hash]");
        query("max_distance 65", "\"field\": \"simhash\", \"hash\": 1, \"max_distance\": 65", "[max_distance]");
        query("max_distance -1", "\"field\": \"simhash\", \"hash\": 1, \"max_distance\": -1", "[max_distance]");
        query("max_distance word", "\"field\": \"simhash\", \"hash\": 1, \"max_distance\": \"far\"", "[max_distance]");
        query("max_distance fraction", "\"field\": \"simhash\", \"hash\": 1, \"max_distance\": 3.5", "[max_distance]");
        query("max_distance huge", "\"field\": \"simhash\", \"hash\": 1, \"max_distance\": 1e20", "[max_distance]");
        query("missing field", "\"hash\": 1", "[field]");
        query("empty field", "\"field\": \"\", \"hash\": 1", "[field]");
        query("no input", "\"field\": \"simhash\"", "exactly one of [hash], [text] or [like]");
        query("two inputs", "\"field\": \"simhash\", \"hash\": 1, \"like\": \"x\"", "exactly one of [hash], [text] or [like]");
        query("unknown parameter", "\"field\": \"simhash\", \"hash\": 1, \"distance\": 3", "[distance]");
        query("empty text", "\"field\": \"simhash\", \"text\": \"\"", "[text]");
        query("punctuation text", "\"field\": \"simhash\", \"text\": \"\uFF0C\u3002\uFF01\"", "[text]");
        query("unknown analyzer", "\"field\": \"simhash\", \"text\": \"x\", \"analyzer\": \"nope\"", "[analyzer]");
        query("bad weighting", "\"field\": \"simhash\", \"text\": \"x\", \"weighting\": \"bm25\"", "[weighting]");
        query("shingle_size 0", "\"field\": \"simhash\", \"text\": \"x\", \"shingle_size\": 0", "[shingle_size]");
        query("min_features 0", "\"field\": \"simhash\", \"text\": \"x\", \"min_features\": 0", "[min_features]");
        query("text option with hash", "\"field\": \"simhash\", \"hash\": 1, \"analyzer\": \"standard\"", "[text]");
        query("like without id", "\"field\": \"simhash\", \"like\": {\"index\": \"bad-idx\"}", "[like]");
        query("like unknown key", "\"field\": \"simhash\", \"like\": {\"id\": \"x\", \"foo\": 1}", "[like]");
        cases.add(new Case("query: like unknown document", "POST", "/bad-idx/_search",
            "{\"query\": {\"simhash\": {\"field\": \"simhash\", \"like\": {\"index\": \"bad-idx\", \"id\": \"zzz\"}}}}", "[like]", 404));
        query("like without fingerprint", "\"field\": \"simhash\", \"like\": {\"index\": \"bad-idx\", \"id\": \"no-fp\"}", "[like]");
        query("like empty id", "\"field\": \"simhash\", \"like\": \"\"", "[like]");
        query("field is a text field", "\"field\": \"body\", \"hash\": 1", "[field]");
        query("boost word", "\"field\": \"simhash\", \"hash\": 1, \"boost\": \"high\"", "[boost]");
        // syntax errors carry their line and column (the query starts at column 25 of the body)
        query("unknown parameter, located", "\"field\": \"simhash\", \"hash\": 1, \"distance\": 3",
            "[1:55] [simhash] unknown field [distance]");
        query("wrong type, located", "\"field\": \"simhash\", \"hash\": [1]", "[simhash] failed to parse field [hash]");

        String p = "\"lang\": \"simhash\", \"source\": ";
        script("unknown source", "{" + p + "\"cosine\", \"params\": {\"field\": \"simhash\", \"hash\": 1}}", "[cosine]");
        script("missing hash", "{" + p + "\"hamming\", \"params\": {\"field\": \"simhash\"}}", "[hash]");
        script("missing field", "{" + p + "\"hamming\", \"params\": {\"hash\": 1}}", "[field]");
        script("malformed hash", "{" + p + "\"hamming\", \"params\": {\"field\": \"simhash\", \"hash\": \"zz\"}}", "[hash]");
        script("unknown param", "{" + p + "\"hamming\", \"params\": {\"field\": \"simhash\", \"hash\": 1, \"max_distance\": 3}}",
            "[max_distance]");
        script("unmapped field", "{" + p + "\"hamming\", \"params\": {\"field\": \"nothere\", \"hash\": 1}}", "[field]");
        script("numeric field", "{" + p + "\"hamming\", \"params\": {\"field\": 5, \"hash\": 1}}", "[field]");
        cases.add(new Case("script: filter context", "POST", "/bad-idx/_search",
            "{\"query\": {\"script\": {\"script\": {" + p + "\"hamming\", \"params\": {\"field\": \"simhash\", \"hash\": 1}}}}}", "[filter]"));

        String fold = "/bad-idx/_simhash/fold";
        String match = "{\"query\": {\"match_all\": {}}}";
        cases.add(new Case("fold: missing field", "POST", fold, match, "[field]"));
        cases.add(new Case("fold: max_distance 65", "POST", fold + "?field=simhash&max_distance=65", match, "[max_distance]"));
        cases.add(new Case("fold: max_distance word", "POST", fold + "?field=simhash&max_distance=far", match, "[max_distance]"));
        cases.add(new Case("fold: window 0", "POST", fold + "?field=simhash&window=0", match, "[window]"));
        cases.add(new Case("fold: window 10001", "POST", fold + "?field=simhash&window=10001", match, "[window]"));
        cases.add(new Case("fold: members 101", "POST", fold + "?field=simhash&members=101", match, "[members]"));
        cases.add(new Case("fold: unknown parameter", "POST", fold + "?field=simhash&distance=3", match, "distance"));
        cases.add(new Case("fold: field is a text field", "POST", fold + "?field=body", match, "[field]"));
        cases.add(new Case("fold: aggregations", "POST", fold + "?field=simhash",
            "{\"aggs\": {\"a\": {\"terms\": {\"field\": \"simhash.b0\"}}}}", "[aggs]"));
        String report = "/bad-idx/_simhash/duplicates";
        cases.add(new Case("report: missing field", "POST", report, "{}", "[field]"));
        cases.add(new Case("report: max_distance 12", "POST", report, "{\"field\": \"simhash\", \"max_distance\": 12}", "[max_distance]"));
        cases.add(new Case("report: max_distance word", "POST", report, "{\"field\": \"simhash\", \"max_distance\": \"x\"}",
            "[max_distance]"));
        cases.add(new Case("report: size 0", "POST", report, "{\"field\": \"simhash\", \"size\": -1}", "[size]"));
        cases.add(new Case("report: size too large", "POST", report, "{\"field\": \"simhash\", \"size\": 100000}", "[size]"));
        cases.add(new Case("report: query not an object", "POST", report, "{\"field\": \"simhash\", \"query\": 5}",
            "[_simhash/duplicates] failed to parse field [query]"));
        cases.add(new Case("report: unknown parameter", "POST", report, "{\"field\": \"simhash\", \"k\": 3}", "[k]"));
        cases.add(new Case("report: body not an object", "POST", report, "[1, 2]", "Expected START_OBJECT"));
        cases.add(new Case("report: unknown parameter, located", "POST", report, "{\"field\": \"simhash\", \"k\": 3}",
            "[1:22] [_simhash/duplicates] unknown field [k]"));
        cases.add(new Case("report: wrong type, located", "POST", report, "{\"field\": \"simhash\", \"size\": [1]}",
            "[_simhash/duplicates] failed to parse field [size]"));
        cases.add(new Case("report: malformed JSON", "POST", report, "{\"field\": \"simhash\", \"size\": }", "[1:"));
        String calibrate = "/bad-idx/_simhash/calibrate";
        cases.add(new Case("calibrate: wrong type, located", "POST", calibrate, "{\"field\": \"simhash\", \"sample_size\": true}",
            "[_simhash/calibrate] failed to parse field [sample_size]"));
        cases.add(new Case("calibrate: URL seed word", "GET", calibrate + "?field=simhash&seed=soon", null,
            "[seed] must be an integer, got [soon]"));
        cases.add(new Case("calibrate: sample_size in range", "POST", calibrate, "{\"field\": \"simhash\", \"sample_size\": 1}",
            "[sample_size] must be between 2 and 10000, got [1]"));
        cases.add(new Case("weights: wrong type, located", "PUT", "/_simhash/weights/bad-types",
            "{\"version\": \"v2\", \"index\": \"bad-idx\", \"field\": \"body\", \"sample_size\": true}",
            "[simhash_weights] failed to parse field [sample_size]"));
        cases.add(new Case("weights: wait_for_completion word", "PUT", "/_simhash/weights/bad-wait?wait_for_completion=maybe",
            "{\"version\": \"v2\", \"features\": {\"the\": 0.5}}", "[wait_for_completion] must be [true] or [false], got [maybe]"));
        cases.add(new Case("weights: size word", "GET", "/_simhash/weights?size=many", null, "[size] must be an integer, got [many]"));
        cases.add(new Case("fold: unknown body key", "POST", fold + "?field=simhash", "{\"bogus\": 1}", "[bogus]"));
        cases.add(new Case("report: write_group_id on a text field", "POST", report,
            "{\"field\": \"simhash\", \"write_group_id\": \"body\"}", "[write_group_id]"));

        StringBuilder nested = new StringBuilder();
        for (int i = 0; i < 200; i++) {
            nested.append("{\"bool\": {\"must\": [");
        }
        nested.append("{\"simhash\": {\"field\": \"simhash\", \"hash\": 1}}");
        for (int i = 0; i < 200; i++) {
            nested.append("]}}");
        }
        cases.add(new Case("deeply nested query", "POST", "/bad-idx/_search", "{\"query\": " + nested + "}", null));
        StringBuilder hugeArray = new StringBuilder("[");
        for (int i = 0; i < 100_000; i++) {
            hugeArray.append(i).append(',');
        }
        hugeArray.append("0]");
        query("100k-element hash array", "\"field\": \"simhash\", \"hash\": " + hugeArray, "[hash]");
        cases.add(new Case("truncated JSON", "POST", "/bad-idx/_search", "{\"query\": {\"simhash\": {\"field\": \"simhash\", \"hash\": ", null));
        return cases;
    }

    @TestFactory
    Stream<DynamicTest> everyMalformedRequestIs400NamingTheParameter() {
        List<Case> all = cases();
        assertTrue(all.size() >= 60, "bad-input cases: " + all.size());
        return all.stream().map(c -> DynamicTest.dynamicTest(c.name(), () -> {
            Rest.Answer a = rest.call(c.method(), c.path(), c.body());
            assertEquals(c.status(), a.status(), c.name() + " -> " + abbreviate(a.body()));
            if (c.mustContain() != null) {
                assertTrue(a.body().contains(c.mustContain()), c.name() + ": expected " + c.mustContain() + " in " + abbreviate(a.body()));
            }
            assertTrue(a.body().length() < 20_000, c.name() + ": the error echoes the input (" + a.body().length() + " chars)");
        }));
    }

    @Test
    void extremeButValidInputIsAccepted() {
        TextFingerprinter core = new TextFingerprinter(FeatureAnalyzer.DEFAULT, FingerprintOptions.DEFAULTS);
        List<String> texts = List.of(
            "emoji \uD83D\uDE00\uD83D\uDC4D\uD83C\uDFFD and 中文 mixed",
            "control\u0000chars\u0007\u001b[31m red \t tab",
            "lone surrogate \uD800 here",
            "zero\u200Bwidth\uFEFFjoiner\u200D",
            "RTL \u202Eevil\u202C text עברית العربية",
            "combining e\u0301 a\u0308 Z\u0351\u0352",
            "x".repeat(10 * 1024 * 1024));
        for (int i = 0; i < texts.size(); i++) {
            String text = texts.get(i);
            Rest.Answer a = rest.put("/bad-idx/_doc/ok" + i + "?pipeline=bad-fp&refresh=true", toJson(Map.of("body", text)));
            assertEquals(201, a.status(), "text " + i + " -> " + abbreviate(a.body()));
            Rest.Answer doc = rest.ok("POST", "/bad-idx/_search", toJson(Map.of("_source", List.of("simhash"),
                "query", Map.of("ids", Map.of("values", List.of("ok" + i))))));
            Object stored = doc.at("hits.hits.0._source.simhash.hash");
            if (i == 2) {
                // a lone surrogate is not valid UTF-16: whatever replacement the JSON layers make, a fingerprint must result
                long v = ((Number) stored).longValue();
                assertTrue(List.of(text, text.replace('\uD800', '\uFFFD'), text.replace('\uD800', '?')).stream()
                    .anyMatch(t -> core.fingerprint(t).getAsLong() == v), "text with a lone surrogate");
                continue;
            }
            assertEquals(core.fingerprint(text).getAsLong(), ((Number) stored).longValue(), "text " + i);
        }
        Rest.Answer bigQuery = rest.post("/bad-idx/_search", toJson(Map.of("query", Map.of("simhash",
            Map.of("field", "simhash", "text", texts.get(texts.size() - 1), "max_distance", 0)))));
        assertEquals(200, bigQuery.status(), abbreviate(bigQuery.body()));
        assertTrue(Fixtures.ids(bigQuery).contains("ok" + (texts.size() - 1)));
    }

    @Test
    void nodeIsHealthyAfterwards() {
        for (Case c : cases()) {
            rest.call(c.method(), c.path(), c.body());
        }
        assertEquals("green", rest.get("/_cluster/health?wait_for_status=green&timeout=30s").at("status"));
        assertTrue(rest.get("/_cat/plugins").body().contains("simhash"));
    }

    static String abbreviate(String s) {
        return s.length() > 600 ? s.substring(0, 600) + "..." : s;
    }
}
