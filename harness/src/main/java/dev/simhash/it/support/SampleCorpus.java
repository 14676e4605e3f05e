package dev.simhash.it.support;

import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The sample corpus ({@code sample-corpus.jsonl}) the real-node tests and the demo share: short Chinese and English news, support
 * tickets and product listings, some planted as groups of lightly edited copies, the rest unrelated.
 */
public final class SampleCorpus {

    /** The resource the documents are read from, one JSON object per line. */
    public static final String RESOURCE = "/dev/simhash/it/support/sample-corpus.jsonl";

    /**
     * Free texts the demo searches with, each a pasted copy of a planted story with a few edits and a
     * sentence left out; {@code group} is the planted group it must find.
     */
    /** Full-text searches whose result lists contain planted near-duplicates: the demo shows them with and without folding. */
    public static final List<TextQuery> FOLD_QUERIES = List.of(
        new TextQuery("zh", "国家统计局 居民消费价格 台风 预警", null),
        new TextQuery("en", "central bank interest rate headphones battery", null));

    public static final List<TextQuery> TEXT_QUERIES = List.of(
        new TextQuery("zh", "国家统计局今日发布数据显示，10月份全国居民消费价格同比上涨0.4%，环比下降0.1%。"
            + "其中食品价格同比上涨1.2%，鲜菜和猪肉价格涨幅较大。", "zh-cpi"),
        new TextQuery("en", "The Harbor Street bridge will close to all traffic for six weeks from Monday while crews replace its worn "
            + "expansion joints. Buses on routes 12 and 40 will be diverted via Mill Road. Drivers should allow an extra 15 minutes "
            + "during the morning rush.", "en-bridge"));

    /** One document; {@code group} names its planted near-duplicate group, or is null for an unrelated document. */
    public record Doc(String id, String lang, String kind, String group, String body) {}

    /** A free-text query in {@code lang} and the planted group it is a copy of. */
    public record TextQuery(String lang, String text, String group) {}

    private final Map<String, Doc> docs;

    private SampleCorpus(Map<String, Doc> docs) {
        this.docs = Collections.unmodifiableMap(docs);
    }

    /** Reads the corpus from the class path (the harness carries it). */
    public static SampleCorpus load() {
        ObjectMapper json = new ObjectMapper();
        Map<String, Doc> docs = new LinkedHashMap<>();
        try (InputStream in = SampleCorpus.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is not on the class path");
            }
            BufferedReader lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                if (line.isBlank()) {
                    continue;
                }
                Doc d = json.readValue(line, Doc.class);
                if (docs.putIfAbsent(d.id(), d) != null) {
                    throw new IllegalStateException("duplicate id [" + d.id() + "] in " + RESOURCE);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + RESOURCE, e);
        }
        return new SampleCorpus(docs);
    }

    /** All documents, in file order. */
    public List<Doc> docs() {
        return List.copyOf(docs.values());
    }

    public Doc doc(String id) {
        Doc d = docs.get(id);
        if (d == null) {
            throw new IllegalArgumentException("no document [" + id + "] in " + RESOURCE);
        }
        return d;
    }

    /** Ids of the members of a planted group, in file order. */
    public Set<String> group(String group) {
        Set<String> ids = new LinkedHashSet<>();
        docs.values().stream().filter(d -> group.equals(d.group())).forEach(d -> ids.add(d.id()));
        if (ids.isEmpty()) {
            throw new IllegalArgumentException("no planted group [" + group + "] in " + RESOURCE);
        }
        return ids;
    }

    /**
     * What a near-duplicate search like document {@code id} must find: the other documents of its planted group, or
     * nothing (a {@code like} query leaves the liked document out).
     */
    public Set<String> expectedNearDuplicates(String id) {
        Doc d = doc(id);
        if (d.group() == null) {
            return Set.of();
        }
        Set<String> others = new java.util.LinkedHashSet<>(group(d.group()));
        others.remove(id);
        return others;
    }

    /** Planted group names, in file order. */
    public List<String> groups() {
        return docs.values().stream().map(Doc::group).filter(g -> g != null).distinct().toList();
    }
}
