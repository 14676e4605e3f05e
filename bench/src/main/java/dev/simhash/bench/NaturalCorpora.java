package dev.simhash.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;

/**
 * Corpora with <em>natural</em> near-duplicates (nothing edited by us), fetched at run time from the
 * package registries into {@code target/bench/corpora} (never committed): long and short texts in
 * English and Chinese. Each says where it comes from and under which licence.
 */
public final class NaturalCorpora {

    /** How the truth shingles of a corpus are made: word n-grams (en) or character n-grams (zh). */
    public enum Lang { EN, ZH }

    /** A corpus: its texts, language, truth shingle size, provenance, or why it is missing. */
    public record Corpus(String name, String description, Lang lang, boolean shortTexts, int shingle, String source,
                         String licence, List<String> docs, String problem) {
        public boolean available() {
            return !docs.isEmpty();
        }

        public double meanChars() {
            return docs.stream().mapToInt(String::length).average().orElse(0);
        }
    }

    /** Names of all corpora, in report order. */
    public static final List<String> ALL = List.of("en-mail", "en-license", "en-subject", "zh-man", "zh-help", "zh-poem", "zh-ci");

    static final int LONG_SHINGLE = 5;
    static final int SHORT_SHINGLE = 2;
    private static final ObjectMapper JSON = new ObjectMapper();

    private NaturalCorpora() {}

    /** Fetches (once) and reads one corpus by name; a failure gives an empty corpus with the reason. */
    public static Corpus load(String name, Path dir, int maxDocs, Log log) {
        try {
            Corpus c = switch (name) {
                case "en-mail" -> {
                    Corpora.Corpus e = Corpora.english(dir, log);
                    if (!e.available()) {
                        throw new IOException(e.problem());
                    }
                    yield new Corpus(name, "SpamAssassin public corpus: e-mail bodies (ham and spam), exact duplicates removed",
                        Lang.EN, false, LONG_SHINGLE, "npm " + Corpora.NPM_PACKAGE, "PDDL-1.0 / CC0-1.0 (data)", e.docs(), null);
                }
                case "en-subject" -> new Corpus(name, "SpamAssassin public corpus: Subject lines (>= 3 words), exact duplicates removed",
                    Lang.EN, true, SHORT_SHINGLE, "npm " + Corpora.NPM_PACKAGE, "PDDL-1.0 / CC0-1.0 (data)", subjects(dir, log), null);
                case "en-man" -> new Corpus(name, "Linux man-pages project: English manual pages, sections 2, 3, 4, 5, 7 (text of the roff source)",
                    Lang.EN, false, LONG_SHINGLE, "Debian manpages, manpages-dev", "various free licences (GPL-2+, BSD, MIT, 'verbatim'; see the packages' copyright)",
                    manPages(dir, List.of("manpages", "manpages-dev"), "usr/share/man", 200, log), null);
                case "en-license" -> new Corpus(name, "SPDX licence list: full licence texts (exact duplicates removed)", Lang.EN, false,
                    LONG_SHINGLE, "npm spdx-license-list 6.12.0", "CC0-1.0 (package); each text under its own terms (not redistributed: fetched at run time)",
                    licences(dir, log), null);
                case "zh-man" -> new Corpus(name, "Chinese manual pages, zh_CN and zh_TW translations (text of the roff source)",
                    Lang.ZH, false, LONG_SHINGLE, "Debian manpages-zh", "GFDL-1.2+", manPages(dir, List.of("manpages-zh"), "usr/share/man", 100, log), null);
                case "zh-help" -> {
                    Corpora.Corpus z = Corpora.chinese(dir, log);
                    if (!z.available()) {
                        throw new IOException(z.problem());
                    }
                    yield new Corpus(name, "LibreOffice help pages, simplified Chinese (main text of each page)", Lang.ZH, false, LONG_SHINGLE,
                        "Debian " + Corpora.DEB_PACKAGE, "MPL-2.0", z.docs(), null);
                }
                case "zh-poem" -> new Corpus(name, "Tang poems (全唐诗, traditional characters) of at most 100 characters", Lang.ZH, true,
                    SHORT_SHINGLE, "npm chinese-poetry 2.0.1", "MIT", tangPoems(dir, log), null);
                case "zh-ci" -> new Corpus(name, "Song ci (全宋词) and Yuan qu (元曲), simplified characters, and the Tang poems "
                    + "of more than 100 characters (traditional; zh-poem has the others): all lengths", Lang.ZH, true, SHORT_SHINGLE,
                    "npm chinese-poetry 2.0.1", "MIT", ciQuAndLongPoems(dir, log), null);
                default -> throw new IllegalArgumentException("unknown corpus [" + name + "], expected some of " + ALL);
            };
            if (c.docs().size() > maxDocs) {
                c = new Corpus(c.name(), c.description(), c.lang(), c.shortTexts(), c.shingle(), c.source(), c.licence(),
                    c.docs().subList(0, maxDocs), null);
            }
            log.info(String.format(Locale.ROOT, "corpus %s: %,d texts, mean %.0f chars", c.name(), c.docs().size(), c.meanChars()));
            return c;
        } catch (IOException | RuntimeException e) {
            if (e instanceof IllegalArgumentException && e.getMessage() != null && e.getMessage().startsWith("unknown corpus")) {
                throw (IllegalArgumentException) e;
            }
            log.warn("corpus " + name + " unavailable: " + e);
            return new Corpus(name, "", Lang.EN, false, LONG_SHINGLE, "", "", List.of(), String.valueOf(e.getMessage()));
        }
    }

    private static final Pattern ENCODED_WORD = Pattern.compile("=\\?[^?]+\\?[bBqQ]\\?");
    private static final Pattern WORD = Pattern.compile("\\p{L}+");

    /** Subject lines of the SpamAssassin messages (unfolded; RFC 2047 encoded ones left out). */
    static List<String> subjects(Path dir, Log log) throws IOException {
        Corpora.english(dir, log); // fetches the package if needed
        Path data = dir.resolve("spam-assassin/package/data");
        List<Path> files;
        try (Stream<Path> s = Files.walk(data)) {
            files = s.filter(p -> p.getFileName().toString().endsWith(".txt")).sorted(Comparator.comparing(Path::toString)).toList();
        }
        Set<String> out = new LinkedHashSet<>();
        for (Path f : files) {
            String msg = new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1).replace("\r\n", "\n");
            int end = msg.indexOf("\n\n");
            String head = end < 0 ? msg : msg.substring(0, end);
            String[] lines = head.split("\n");
            for (int i = 0; i < lines.length; i++) {
                if (lines[i].regionMatches(true, 0, "Subject:", 0, 8)) {
                    StringBuilder sb = new StringBuilder(lines[i].substring(8));
                    while (i + 1 < lines.length && !lines[i + 1].isEmpty() && Character.isWhitespace(lines[i + 1].charAt(0))) {
                        sb.append(' ').append(lines[++i].strip());
                    }
                    String subj = sb.toString().strip().replaceAll("\\s+", " ");
                    if (!ENCODED_WORD.matcher(subj).find() && WORD.matcher(subj).results().count() >= 3) {
                        out.add(subj);
                    }
                    break;
                }
            }
        }
        return new ArrayList<>(out);
    }

    /** Plain text of every manual page of the Debian packages (pages shorter than minChars left out; exact duplicates removed). */
    static List<String> manPages(Path dir, List<String> packages, String under, int minChars, Log log) throws IOException {
        Set<String> out = new LinkedHashSet<>();
        for (String pkg : packages) {
            Path x = fetchDeb(dir, pkg, log);
            List<Path> files;
            try (Stream<Path> s = Files.walk(x.resolve(under))) {
                files = s.filter(p -> p.getFileName().toString().endsWith(".gz") && Files.isRegularFile(p)
                        && p.getParent().getFileName().toString().matches("man[0-9]"))
                    .sorted(Comparator.comparing(Path::toString)).toList();
            }
            for (Path f : files) {
                String roff;
                try (InputStream in = new GZIPInputStream(Files.newInputStream(f))) {
                    roff = new String(in.readAllBytes(), StandardCharsets.UTF_8);
                }
                String text = roffText(roff);
                if (text.length() >= minChars) {
                    out.add(text);
                }
            }
        }
        return new ArrayList<>(out);
    }

    /** The Debian package unpacked under dir/pkg/x (apt-get download, dpkg-deb -x), fetched once. */
    static Path fetchDeb(Path dir, String pkg, Log log) throws IOException {
        Path root = dir.resolve(pkg);
        Path x = root.resolve("x");
        if (!Files.isDirectory(x)) {
            Files.createDirectories(root);
            log.info("fetching Debian package " + pkg + " (apt-get download, dpkg-deb -x) ...");
            Corpora.run(root, 300, "apt-get", "download", pkg);
            Path deb;
            try (Stream<Path> s = Files.list(root)) {
                deb = s.filter(p -> p.getFileName().toString().endsWith(".deb")).findFirst()
                    .orElseThrow(() -> new IOException("apt-get download produced no .deb"));
            }
            Corpora.run(root, 300, "dpkg-deb", "-x", deb.getFileName().toString(), "x");
        }
        return x;
    }

    private static final Pattern FONT = Pattern.compile("\\\\f(\\[[^]]*]|\\(..|.)");
    private static final Pattern SPECIAL = Pattern.compile("\\\\(\\(..|\\[[^]]*]|\\*(\\(..|\\[[^]]*]|.)|s[-+]?\\d+|[&,/:^|%])");

    /** The running text of a roff manual page: comments dropped, macro names dropped (their arguments kept), escapes removed. */
    static String roffText(String roff) {
        StringBuilder sb = new StringBuilder();
        for (String line : roff.split("\n")) {
            String l = line;
            if (l.startsWith(".\\\"") || l.startsWith("'\\\"") || l.startsWith("\\\"")) {
                continue;
            }
            if (l.startsWith(".") || l.startsWith("'")) {
                int sp = l.indexOf(' ');
                String macro = sp < 0 ? l.substring(1) : l.substring(1, sp);
                if (sp < 0 || macro.equals("TH") || macro.equals("so") || macro.equals("ds") || macro.equals("de")
                    || macro.equals("nr") || macro.equals("if") || macro.equals("ie") || macro.equals("el")) {
                    continue;
                }
                l = l.substring(sp + 1).replace("\"", "");
            }
            l = FONT.matcher(l).replaceAll("");
            l = SPECIAL.matcher(l).replaceAll(" ");
            l = l.replace("\\-", "-").replace("\\e", "\\").replace("\\ ", " ");
            sb.append(l.strip()).append('\n');
        }
        return sb.toString().replaceAll("[ \\t]+", " ").replaceAll("\\n{3,}", "\n\n").strip();
    }

    /** Full texts of the SPDX licences (npm spdx-license-list, spdx-full.json). */
    static List<String> licences(Path dir, Log log) throws IOException {
        Path root = dir.resolve("spdx-license-list");
        Path json = root.resolve("package/spdx-full.json");
        if (!Files.isRegularFile(json)) {
            Files.createDirectories(root);
            log.info("fetching npm package spdx-license-list (npm pack) ...");
            Corpora.run(root, 300, "npm", "pack", "--silent", "spdx-license-list@6.12.0");
            Corpora.run(root, 300, "tar", "xzf", "spdx-license-list-6.12.0.tgz");
        }
        Set<String> out = new LinkedHashSet<>();
        JSON.readTree(json.toFile()).forEach(l -> {
            String t = l.path("licenseText").asText("").strip();
            if (t.length() >= 200) {
                out.add(t);
            }
        });
        return new ArrayList<>(out);
    }

    /** A directory of the chinese-poetry npm package (package/dist/NAME), fetched once and unpacked once. */
    static Path chinesePoetry(Path dir, String name, Log log) throws IOException {
        Path root = dir.resolve("chinese-poetry");
        Path data = root.resolve("package/dist/" + name);
        if (!Files.isDirectory(data)) {
            Files.createDirectories(root);
            if (!Files.isRegularFile(root.resolve("chinese-poetry-2.0.1.tgz"))) {
                log.info("fetching npm package chinese-poetry (npm pack, about 85 MB) ...");
                Corpora.run(root, 600, "npm", "pack", "--silent", "chinese-poetry@2.0.1");
            }
            Corpora.run(root, 300, "tar", "xzf", "chinese-poetry-2.0.1.tgz", "package/LICENSE", "package/dist/" + name);
        }
        return data;
    }

    /** The body of every poem of some files of the chinese-poetry package (paragraphs joined), exact duplicates removed. */
    static List<String> poems(List<Path> files, int minChars, int maxChars) throws IOException {
        Set<String> out = new LinkedHashSet<>();
        for (Path f : files) {
            for (JsonNode poem : JSON.readTree(f.toFile())) {
                StringBuilder sb = new StringBuilder();
                for (JsonNode p : poem.path("paragraphs")) {
                    sb.append(p.asText());
                }
                String t = sb.toString().strip();
                if (t.length() >= minChars && t.length() <= maxChars) {
                    out.add(t);
                }
            }
        }
        return new ArrayList<>(out);
    }

    /**
     * Song ci (songci/ci.song.*.json, about 21,000), Yuan qu (yuanqu/yuanqu.json, about 11,000) and the Tang poems of
     * more than 100 characters (about 6,000) of the chinese-poetry npm package: every text of at least 10 characters,
     * of any length (tens to hundreds of characters, a few thousand), exact duplicates removed.
     */
    static List<String> ciQuAndLongPoems(Path dir, Log log) throws IOException {
        Path ci = chinesePoetry(dir, "songci", log);
        Path qu = chinesePoetry(dir, "yuanqu", log);
        List<Path> files = new ArrayList<>();
        try (Stream<Path> s = Files.list(ci)) {
            files.addAll(s.filter(p -> p.getFileName().toString().matches("ci\\.song\\.\\d+\\.json"))
                .sorted(Comparator.comparingInt(p -> Integer.parseInt(p.getFileName().toString().replaceAll("\\D", "")))).toList());
        }
        try (Stream<Path> s = Files.list(qu)) {
            files.addAll(s.filter(p -> p.getFileName().toString().endsWith(".json")).sorted().toList());
        }
        List<String> out = new ArrayList<>(new LinkedHashSet<>(poems(files, 10, Integer.MAX_VALUE)));
        out.addAll(poems(tangFiles(dir, log), 101, Integer.MAX_VALUE));
        return new ArrayList<>(new LinkedHashSet<>(out));
    }

    /** Tang poems of the chinese-poetry npm package (poet.tang.*.json), body text, at most 100 characters. */
    static List<String> tangPoems(Path dir, Log log) throws IOException {
        return poems(tangFiles(dir, log), 10, 100);
    }

    /** The Tang poems' files (poet.tang.*.json), in order. */
    static List<Path> tangFiles(Path dir, Log log) throws IOException {
        Path data = chinesePoetry(dir, "quantangshi", log);
        try (Stream<Path> s = Files.list(data)) {
            return s.filter(p -> p.getFileName().toString().matches("poet\\.tang\\.\\d+\\.json"))
                .sorted(Comparator.comparingInt(p -> Integer.parseInt(p.getFileName().toString().replaceAll("\\D", "")))).toList();
        }
    }
}
