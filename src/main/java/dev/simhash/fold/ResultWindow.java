package dev.simhash.fold;

import org.elasticsearch.cluster.metadata.IndexMetadata;
import org.elasticsearch.index.IndexSettings;

import java.util.function.Function;

/**
 * The largest {@code from + size} a search of some indices may ask for: the smallest {@code index.max_result_window}
 * among them, read from the node's cluster state for the concrete indices a mapping check resolved with the caller's
 * privileges. The fold sizes its search and the report its pages with it, so a small but valid setting never makes
 * them fail with "Result window is too large".
 *
 * @param size  the limit, at most the {@code cap} it was computed with
 * @param index the index that sets the limit, or null when no index limits it below the cap
 */
record ResultWindow(int size, String index) {

    /**
     * The smallest {@code index.max_result_window} of {@code indices}, at most {@code cap}. Indices not in the local
     * cluster state (remote clusters' {@code cluster:index}, or deleted meanwhile) do not count: their own search
     * reports their limit.
     */
    static ResultWindow smallest(Function<String, IndexMetadata> metadata, String[] indices, int cap) {
        int size = cap;
        String limiting = null;
        if (indices != null) {
            for (String name : indices) {
                IndexMetadata index = metadata.apply(name);
                if (index == null) {
                    continue;
                }
                int window = IndexSettings.MAX_RESULT_WINDOW_SETTING.get(index.getSettings());
                if (window < size) {
                    size = window;
                    limiting = name;
                }
            }
        }
        return new ResultWindow(size, limiting);
    }
}
