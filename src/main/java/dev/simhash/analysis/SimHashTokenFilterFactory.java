package dev.simhash.analysis;

import dev.simhash.compat.CompatAnalysis;
import dev.simhash.core.FingerprintOptions;
import dev.simhash.core.FingerprintSpec;

import org.apache.lucene.analysis.TokenStream;
import org.elasticsearch.common.settings.Settings;
import org.elasticsearch.env.Environment;
import org.elasticsearch.index.IndexSettings;
import org.elasticsearch.index.analysis.TokenFilterFactory;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** Builds the {@code simhash} token filter from its index settings. */
public final class SimHashTokenFilterFactory extends CompatAnalysis.FilterFactoryBase {

    public static final String NAME = "simhash";
    static final String OUTPUT = "output";
    /** The fingerprint options a filter takes: its tokens come from the chain, so it has no analyzer. */
    static final List<String> SPEC_OPTIONS = List.of(FingerprintSpec.VERSION, FingerprintSpec.SHINGLE_SIZE, FingerprintSpec.WEIGHTING,
        FingerprintSpec.MIN_FEATURES);
    static final Set<String> SETTINGS = Stream.concat(Stream.of(OUTPUT), SPEC_OPTIONS.stream()).collect(Collectors.toUnmodifiableSet());

    private final FingerprintOptions options;
    private final SimHashTokenFilter.Output output;

    public SimHashTokenFilterFactory(IndexSettings indexSettings, Environment environment, String name, Settings settings) {
        super(indexSettings, name, settings);
        if (settings.get(FingerprintSpec.WEIGHTS) != null) {
            // the filter fingerprints inside analysis, where the node's feature-weight tables are not at hand
            throw new IllegalArgumentException("[" + FingerprintSpec.WEIGHTS + "] is not available in the simhash token filter [" + name
                + "]: use a [simhash] field or the [simhash] processor to weight features with a table");
        }
        StrictSettings s = new StrictSettings(settings, "token filter", name, SETTINGS);
        try {
            this.output = SimHashTokenFilter.Output.fromOption(s.string(OUTPUT, "hash"));
            Map<String, Object> raw = new HashMap<>();
            for (String option : SPEC_OPTIONS) {
                String value = settings.get(option);
                if (value != null) {
                    raw.put(option, value);
                }
            }
            FingerprintSpec spec = FingerprintSpec.parse(raw, SPEC_OPTIONS);
            if (spec.version() != FingerprintSpec.Version.V1) {
                // the filter's features are its analysis chain's tokens; v2 fixes its own normalisation and tokens
                throw new IllegalArgumentException("[" + FingerprintSpec.VERSION + "] [" + spec.version().optionName()
                    + "] is not available in the token filter, which fingerprints the tokens of its analysis chain; "
                    + spec.version().algorithm() + " defines its own tokens: use a [simhash] field or the [simhash] processor");
            }
            this.options = spec.options();
        } catch (IllegalArgumentException e) {
            throw s.invalid(e);
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
