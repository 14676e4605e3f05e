package dev.simhash.bench;

import dev.simhash.core.FeatureAnalyzer;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

class PerturbTest {

    private final Perturb perturb = new Perturb(FeatureAnalyzer.DEFAULT.newAnalyzer());

    @Test
    void unitsCoverTheTextExactly() {
        for (String text : List.of("  Hello, world: the quick brown fox.", "国家统计局今天发布了最新一期的居民消费价格指数。", "x", "")) {
            assertEquals(text, String.join("", perturb.units(text)));
        }
        assertEquals(List.of("  ", "Hello, ", "world: ", "the ", "fox."), perturb.units("  Hello, world: the fox."));
    }

    @Test
    void editsAtTheRate() {
        assertEquals(0, Perturb.edits(100, 0));
        assertEquals(5, Perturb.edits(100, 0.05));
        assertEquals(1, Perturb.edits(10, 0.1));
        String text = "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen";
        assertEquals(text, perturb.perturb(text, 0, List.of("x "), new Random(1)));
        String changed = perturb.perturb(text, 0.25, List.of("zzz "), new Random(1));
        assertNotEquals(text, changed);
    }
}
