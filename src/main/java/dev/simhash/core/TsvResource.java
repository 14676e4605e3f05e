package dev.simhash.core;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.function.BiConsumer;

/** Reads a two-column, tab-separated UTF-8 table shipped as a class-path resource ({@code #} comments, blank lines skipped). */
public final class TsvResource {

    private TsvResource() {}

    /** Hands every (first column, second column) row of the resource to {@code row}, in file order. */
    public static void read(Class<?> owner, String resource, BiConsumer<String, String> row) {
        try (InputStream in = owner.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + resource);
            }
            BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            String line;
            while ((line = r.readLine()) != null) {
                if (line.isEmpty() || line.startsWith("#")) {
                    continue;
                }
                int tab = line.indexOf('\t');
                if (tab < 0) {
                    throw new IllegalStateException("bad line in " + resource + ": " + line);
                }
                row.accept(line.substring(0, tab), line.substring(tab + 1));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
