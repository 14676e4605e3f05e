package dev.simhash.it.support;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

/**
 * The fixtures the ITs share: the mapping of the processor's object form, its stored form written by the
 * test itself (not by the production code under test), an index with it, random bit flips, hit ids.
 */
public final class Fixtures {

    /** The processor's object form: the hash as a long with doc values, the four blocks as keywords. */
    public static final String FP_MAPPING = """
        {"properties": {"hash": {"type": "long"}, "b0": {"type": "keyword"}, "b1": {"type": "keyword"},
         "b2": {"type": "keyword"}, "b3": {"type": "keyword"}}}""";

    /** Sample texts: English, Chinese, and both mixed with digits and punctuation. */
    public static final String EN = "Elasticsearch is a distributed search and analytics engine built on Apache Lucene.";
    public static final String ZH = "北京时间今天上午，国家统计局发布了最新一期的居民消费价格指数数据。";
    public static final String MIXED = "Elasticsearch 是一个分布式搜索引擎, It's fast! 2024年发布了 9.0 版本。";

    private Fixtures() {}

    /** Index settings and mappings: {@code body} text and the object form under {@code simhash}. */
    public static String objectFormIndex(int shards) {
        return "{\"settings\": {\"number_of_shards\": " + shards + ", \"number_of_replicas\": 0}, \"mappings\": {\"properties\": "
            + "{\"body\": {\"type\": \"text\"}, \"simhash\": " + FP_MAPPING + "}}}";
    }

    /**
     * The object the processor writes for a fingerprint, as the README specifies it: {@code hash} the signed long,
     * {@code b}j the 16 bits {@code (h >>> 16j) & 0xFFFF} as 4 lowercase hex digits.
     */
    public static Map<String, Object> storedForm(long fingerprint) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("hash", fingerprint);
        for (int j = 0; j < 4; j++) {
            m.put("b" + j, String.format(Locale.ROOT, "%04x", (fingerprint >>> (16 * j)) & 0xFFFF));
        }
        return m;
    }

    /** {@code h} with exactly {@code bits} distinct random bits flipped. */
    public static long flip(Random r, long h, int bits) {
        long mask = 0;
        while (Long.bitCount(mask) < bits) {
            mask |= 1L << r.nextInt(64);
        }
        return h ^ mask;
    }

    /** The ids of a search response's hits, in order. */
    public static List<String> ids(Rest.Answer a) {
        List<Map<String, Object>> hits = a.at("hits.hits");
        List<String> out = new ArrayList<>();
        hits.forEach(h -> out.add((String) h.get("_id")));
        return out;
    }

    /**
     * One search or get statistic of {@code index}'s primaries ({@code search.query_total}, {@code get.total}): how many
     * shard-level searches or gets it served.
     */
    public static long primariesStat(Rest rest, String index, String path) {
        return ((Number) rest.ok("GET", "/" + index + "/_stats/search,get", null).at("_all.primaries." + path)).longValue();
    }
}
