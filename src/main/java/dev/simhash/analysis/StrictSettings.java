package dev.simhash.analysis;

import org.elasticsearch.common.settings.Settings;

import java.util.Set;
import java.util.TreeSet;

/**
 * Reads analysis component settings strictly: Elasticsearch accepts any key under
 * {@code index.analysis.*}, so unknown keys and malformed numbers are rejected here with an
 * {@link IllegalArgumentException} (a 400) naming the setting and the component.
 */
final class StrictSettings {

    private final Settings settings;
    private final String component;

    StrictSettings(Settings settings, String kind, String name, Set<String> allowed) {
        this.settings = settings;
        this.component = kind + " [" + name + "]";
        for (String key : settings.keySet()) {
            // "type" names the component; index.* keys are the index settings ES passes to components used by name
            if (!key.equals("type") && !key.startsWith("index.") && !allowed.contains(key)) {
                throw new IllegalArgumentException("unknown setting [" + key + "] for " + component + ", supported settings are "
                    + new TreeSet<>(allowed));
            }
        }
    }

    String string(String key, String defaultValue) {
        String v = settings.get(key);
        return v == null ? defaultValue : v;
    }

    int integer(String key, int defaultValue) {
        String v = settings.get(key);
        if (v == null) {
            return defaultValue;
        }
        try {
            return Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("[" + key + "] of " + component + " must be an integer, got [" + v + "]");
        }
    }

    /** Re-throws a validation error of a value with the component named. */
    IllegalArgumentException invalid(IllegalArgumentException e) {
        return new IllegalArgumentException(e.getMessage() + " (in " + component + ")", e);
    }
}
