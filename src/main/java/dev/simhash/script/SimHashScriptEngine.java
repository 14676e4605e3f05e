package dev.simhash.script;

import dev.simhash.core.SimHash;

import org.elasticsearch.script.FieldScript;
import org.elasticsearch.script.NumberSortScript;
import org.elasticsearch.script.ScoreScript;
import org.elasticsearch.script.ScriptContext;
import org.elasticsearch.script.ScriptEngine;
import org.elasticsearch.script.ScriptException;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Script language {@code simhash}: the scripts {@code hamming} and {@code similarity} compare a given
 * fingerprint with each document's stored one, in the score, number_sort and field contexts.
 *
 * <p>Script settings ({@code script.allowed_types}, {@code script.allowed_contexts}) and compilation
 * limits are enforced by Elasticsearch's ScriptService before {@link #compile} is called.
 */
public final class SimHashScriptEngine implements ScriptEngine {

    /** The {@code lang} of the scripts. */
    public static final String LANG = "simhash";

    private static final Set<ScriptContext<?>> CONTEXTS = Set.of(ScoreScript.CONTEXT, NumberSortScript.CONTEXT, FieldScript.CONTEXT);

    @Override
    public String getType() {
        return LANG;
    }

    @Override
    public <FactoryType> FactoryType compile(String name, String code, ScriptContext<FactoryType> context, Map<String, String> options) {
        try {
            return doCompile(code, context);
        } catch (IllegalArgumentException e) {
            // a ScriptException is passed on as it is (400, our message as the reason); any other exception Elasticsearch
            // wraps as "Failed to compile inline script [<source>]", which names neither [source] nor the problem
            throw new ScriptException(e.getMessage(), e, List.of(), code == null ? "" : SimHash.abbreviate(code), LANG);
        }
    }

    private static <FactoryType> FactoryType doCompile(String code, ScriptContext<FactoryType> context) {
        // options (Elasticsearch adds content_type for some sources) configure nothing here: ignored rather than rejected
        ScriptMetric metric = ScriptMetric.fromSource(code);
        Object factory;
        if (context == ScoreScript.CONTEXT) {
            factory = new HammingScoreScript.Factory(metric);
        } else if (context == NumberSortScript.CONTEXT) {
            factory = new HammingSortScript.Factory(metric);
        } else if (context == FieldScript.CONTEXT) {
            factory = new HammingFieldScript.Factory(metric);
        } else {
            throw new IllegalArgumentException(String.format(Locale.ROOT,
                "simhash scripts cannot be used in the [%s] context, only in [%s, %s, %s]",
                context.name, ScoreScript.CONTEXT.name, NumberSortScript.CONTEXT.name, FieldScript.CONTEXT.name));
        }
        return context.factoryClazz.cast(factory);
    }

    @Override
    public Set<ScriptContext<?>> getSupportedContexts() {
        return CONTEXTS;
    }
}
