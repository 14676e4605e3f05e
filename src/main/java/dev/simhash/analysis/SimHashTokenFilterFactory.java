package dev.simhash.analysis;

import dev.simhash.core.FingerprintOptions;
import dev.simhash.core.Weighting;

import org.apache.lucene.analysis.TokenStream;
import org.elasticsearch.common.settings.Settings;
import org.elasticsearch.env.Environment;
import org.elasticsearch.index.IndexSettings;
import org.elasticsearch.index.analysis.AbstractTokenFilterFactory;
import org.elasticsearch.index.analysis.TokenFilterFactory;

import java.util.Set;

/** Builds the {@code simhash} token filter from its index settings. */
public final class SimHashTokenFilterFactory extends AbstractTokenFilterFactory {

    public static final String NAME = "simhash";
    static final Set<String> SETTINGS = Set.of("output", "weighting", "shingle_size", "min_features");

    private final FingerprintOptions options;
    private final SimHashTokenFilter.Output output;

    public SimHashTokenFilterFactory(IndexSettings indexSettings, Environment environment, String name, Settings settings) {
        super(name);
        StrictSettings s = new StrictSettings(settings, "token filter", name, SETTINGS);
        try {
            this.output = SimHashTokenFilter.Output.fromOption(s.string("output", "hash"));
            this.options = new FingerprintOptions(
                s.integer("shingle_size", FingerprintOptions.DEFAULT_SHINGLE_SIZE),
                weighting(s.string("weighting", Weighting.DEFAULT.optionName())),
                s.integer("min_features", FingerprintOptions.DEFAULT_MIN_FEATURES));
        } catch (IllegalArgumentException e) {
            throw s.invalid(e);
        }
    }

    private static Weighting weighting(String value) {
        try {
            return Weighting.fromOption(value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("[weighting] " + e.getMessage());
        }
    }

    @Override
    public TokenStream create(TokenStream tokenStream) {
        return new SimHashTokenFilter(tokenStream, options, output);
    }

    @Override
    public TokenFilterFactory getSynonymFilter() {
        // it consumes the whole stream: meaningless (and harmful) inside synonym rule parsing
        throw new IllegalArgumentException("token filter [" + name() + "] cannot be used to parse synonyms");
    }
}
