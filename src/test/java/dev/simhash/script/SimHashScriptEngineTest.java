package dev.simhash.script;

import org.elasticsearch.rest.RestStatus;
import org.elasticsearch.script.AggregationScript;
import org.elasticsearch.script.FieldScript;
import org.elasticsearch.script.FilterScript;
import org.elasticsearch.script.IngestScript;
import org.elasticsearch.script.NumberSortScript;
import org.elasticsearch.script.ScoreScript;
import org.elasticsearch.script.ScriptContext;
import org.elasticsearch.script.ScriptException;
import org.elasticsearch.script.ScriptFactory;
import org.elasticsearch.script.StringSortScript;
import org.elasticsearch.script.TermsSetQueryScript;
import org.elasticsearch.test.ESTestCase;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.hamcrest.Matchers.containsString;

/** Compilation: the lang, script sources and contexts the engine accepts and rejects. */
public class SimHashScriptEngineTest extends ESTestCase {

    private final SimHashScriptEngine engine = new SimHashScriptEngine();

    public void testLangAndContexts() {
        assertEquals("simhash", engine.getType());
        assertEquals(Set.of(ScoreScript.CONTEXT, NumberSortScript.CONTEXT, FieldScript.CONTEXT), engine.getSupportedContexts());
    }

    public void testEverySourceCompilesInEverySupportedContext() {
        for (String source : List.of("hamming", "similarity")) {
            List<ScriptFactory> factories = List.of(
                engine.compile(null, source, ScoreScript.CONTEXT, Map.of()),
                engine.compile("stored-id", source, NumberSortScript.CONTEXT, Map.of()),
                engine.compile(null, source, FieldScript.CONTEXT, Map.of("content_type", "application/json")));
            for (ScriptFactory f : factories) {
                assertTrue(f.isResultDeterministic());
            }
        }
    }

    public void testUnknownSource() {
        for (String source : List.of("x", "Hamming", " hamming", "", "doc['fp.hash'].value")) {
            // a ScriptException: Elasticsearch passes it on as is (400), where it would wrap any other exception as
            // "Failed to compile inline script [...]", a message that does not name [source]
            ScriptException e = expectThrows(ScriptException.class, () -> engine.compile(null, source, ScoreScript.CONTEXT, Map.of()));
            assertEquals("[source] unknown simhash script [" + source + "], expected one of [hamming, similarity]", e.getMessage());
            assertEquals(RestStatus.BAD_REQUEST, e.status());
            assertEquals("simhash", e.getLang());
        }
        ScriptException e = expectThrows(ScriptException.class, () -> engine.compile(null, "hamming\u0000", ScoreScript.CONTEXT, Map.of()));
        assertEquals("[source] unknown simhash script [hamming\\u0000], expected one of [hamming, similarity]", e.getMessage());
    }

    public void testUnsupportedContexts() {
        for (ScriptContext<?> context : List.<ScriptContext<?>>of(FilterScript.CONTEXT, StringSortScript.CONTEXT,
            AggregationScript.CONTEXT, IngestScript.CONTEXT, TermsSetQueryScript.CONTEXT)) {
            ScriptException e = expectThrows(ScriptException.class, () -> engine.compile(null, "hamming", context, Map.of()));
            assertEquals(RestStatus.BAD_REQUEST, e.status());
            assertThat(e.getMessage(), containsString("[" + context.name + "] context"));
            assertThat(e.getMessage(), containsString("[score, number_sort, field]"));
        }
    }

    public void testParamsAreCheckedPerShardBeforeAnyDocument() {
        ScoreScript.Factory factory = engine.compile(null, "hamming", ScoreScript.CONTEXT, Map.of());
        IllegalArgumentException e = expectThrows(IllegalArgumentException.class, () -> factory.newFactory(Map.of("field", "fp"), null));
        assertThat(e.getMessage(), containsString("[hash] param is required"));
        NumberSortScript.Factory sort = engine.compile(null, "similarity", NumberSortScript.CONTEXT, Map.of());
        e = expectThrows(IllegalArgumentException.class, () -> sort.newFactory(Map.of("hash", "0"), null));
        assertThat(e.getMessage(), containsString("[field] param is required"));
        FieldScript.Factory field = engine.compile(null, "similarity", FieldScript.CONTEXT, Map.of());
        e = expectThrows(IllegalArgumentException.class, () -> field.newFactory(Map.of("field", "fp", "hash", "zz"), null));
        assertThat(e.getMessage(), containsString("[hash]"));
    }
}
