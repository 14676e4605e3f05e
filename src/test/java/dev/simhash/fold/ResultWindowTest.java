package dev.simhash.fold;

import org.elasticsearch.cluster.metadata.IndexMetadata;
import org.elasticsearch.index.IndexVersion;
import org.elasticsearch.test.ESTestCase;

import java.util.Map;
import java.util.function.Function;

import static org.hamcrest.Matchers.containsString;

/** The smallest index.max_result_window of the target indices, and how the fold's window fits it. */
public class ResultWindowTest extends ESTestCase {

    private static IndexMetadata index(String name, Integer maxResultWindow) {
        var settings = indexSettings(IndexVersion.current(), 1, 0);
        if (maxResultWindow != null) {
            settings.put("index.max_result_window", maxResultWindow);
        }
        return IndexMetadata.builder(name).settings(settings).build();
    }

    // the indices of the cluster state, by name (what the plugin's CompatIndices looks up)
    private final Function<String, IndexMetadata> project = Map.of("default", index("default", null), "w20", index("w20", 20),
        "w500", index("w500", 500), "w1", index("w1", 1))::get;

    public void testSmallestOfTheGivenIndicesOnly() {
        assertEquals(new ResultWindow(10_000, null), ResultWindow.smallest(project, new String[] { "default" }, 10_000));
        assertEquals(new ResultWindow(20, "w20"), ResultWindow.smallest(project, new String[] { "default", "w500", "w20" }, 10_000));
        assertEquals(new ResultWindow(1, "w1"), ResultWindow.smallest(project, new String[] { "w1", "w20" }, 10_000));
        // never above the cap; an index at the cap does not count as limiting
        assertEquals(new ResultWindow(100, null), ResultWindow.smallest(project, new String[] { "w500", "default" }, 100));
        // unknown to this cluster state (a remote cluster's index, or deleted): not counted
        assertEquals(new ResultWindow(10_000, null), ResultWindow.smallest(project, new String[] { "remote:w20", "gone" }, 10_000));
        assertEquals(new ResultWindow(10_000, null), ResultWindow.smallest(project, new String[0], 10_000));
        assertEquals(new ResultWindow(10_000, null), ResultWindow.smallest(project, null, 10_000));
    }

    public void testFoldWindowShrinksWhenDefaultedAndFailsWhenGiven() {
        FoldParams defaulted = new FoldParams("simhash", 3, true, null, false, 100, false, 0);
        assertEquals(20, defaulted.fitTo(new ResultWindow(20, "w20")).window());
        assertSame(defaulted, defaulted.fitTo(new ResultWindow(100, null)));

        FoldParams given = new FoldParams("simhash", 3, true, null, false, 100, true, 0);
        IllegalArgumentException e = expectThrows(IllegalArgumentException.class, () -> given.fitTo(new ResultWindow(20, "w20")));
        assertThat(e.getMessage(), containsString("[window] must be at most [20], the [index.max_result_window] of index [w20], got [100]"));
        FoldParams fits = new FoldParams("simhash", 3, true, null, false, 20, true, 0);
        assertSame(fits, fits.fitTo(new ResultWindow(20, "w20")));
    }
}
