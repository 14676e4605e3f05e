package dev.simhash.demo;

import dev.simhash.it.support.RealNodeExtension;
import dev.simhash.it.support.Rest;
import dev.simhash.it.support.SampleCorpus;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * docs/demo.md shows what {@code ./run demo} prints: every {@code text} block of the page is a run of consecutive lines of
 * the demo's report, computed here on an index of the same name loaded with the same corpus.
 */
@ExtendWith(RealNodeExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DemoPageIT {

    private final Rest rest;

    DemoPageIT(Rest rest) {
        this.rest = rest;
    }

    @AfterAll
    void cleanUp() {
        rest.delete("/" + Demo.INDEX);
        rest.delete("/" + Demo.INDEX + "-incoming");
        rest.delete("/_ingest/pipeline/" + Demo.INDEX + "-dedup");
    }

    /** docs/demo.md: the build passes its path (simhash.docs.demo); from the demo unit's directory otherwise. */
    private static Path page() {
        return Path.of(System.getProperty("simhash.docs.demo", "../docs/demo.md")).toAbsolutePath();
    }

    /** The page's fenced {@code text} blocks, each as its lines. */
    static List<List<String>> textBlocks(List<String> lines) {
        List<List<String>> blocks = new ArrayList<>();
        List<String> current = null;
        for (String line : lines) {
            if (line.startsWith("```")) {
                if (current == null && line.substring(3).trim().equals("text")) {
                    current = new ArrayList<>();
                } else if (current != null) {
                    blocks.add(current);
                    current = null;
                }
                continue;
            }
            if (current != null) {
                current.add(line);
            }
        }
        return blocks;
    }

    @Test
    void everySampleOfTheDemoPageIsWhatTheDemoPrints() throws IOException {
        SampleCorpus corpus = SampleCorpus.load();
        DemoIndex index = new DemoIndex(rest, Demo.INDEX);
        index.create();
        index.load(corpus);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            Demo.report(out, corpus, index);
        }
        List<String> printed = bytes.toString(StandardCharsets.UTF_8).lines().map(String::stripTrailing).toList();
        List<List<String>> blocks = textBlocks(Files.readAllLines(page(), StandardCharsets.UTF_8));
        assertTrue(blocks.size() >= 3, "text blocks in " + page() + ": " + blocks.size());
        List<String> problems = new ArrayList<>();
        for (List<String> block : blocks) {
            int at = printed.indexOf(block.get(0).stripTrailing());
            if (at < 0) {
                problems.add("the demo prints no line [" + block.get(0) + "]");
                continue;
            }
            int differ = 0;
            for (int i = 0; i < block.size() && differ < 10; i++) {
                String shown = block.get(i).stripTrailing();
                String real = at + i < printed.size() ? printed.get(at + i) : "(the end of the output)";
                if (!shown.equals(real)) {
                    problems.add("line " + (i + 1) + " of the block starting [" + block.get(0) + "]:\n  page: " + shown
                        + "\n  demo: " + real);
                    differ++;
                }
            }
        }
        if (!problems.isEmpty()) {
            fail(problems.size() + " lines of docs/demo.md differ from what the demo prints (update the page from this "
                + "output or from ./run demo):\n" + String.join("\n", problems) + "\n\nthe demo's report:\n"
                + String.join("\n", printed));
        }
    }
}
