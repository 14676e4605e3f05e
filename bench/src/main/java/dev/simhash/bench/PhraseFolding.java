package dev.simhash.bench;

import dev.simhash.core.CharFolding;
import dev.simhash.core.TsvResource;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * A candidate measured for simhash-v2 and not chosen (bench only): folds Taiwan vocabulary to mainland vocabulary in text that {@link CharFolding} has already folded
 * (檔案 / 档案 -> 文件, 伺服器 -> 服务器), with a fixed table derived from OpenCC's TWPhrasesRev
 * ({@code phrase-folding-tw.tsv}, a test resource made by tools/char-folding/generate.sh): scanning from the start, at each position the longest key that
 * matches is replaced by its value and the scan goes on after the key; replaced text is not scanned
 * again. Thread-safe.
 */
public final class PhraseFolding {

    /** The table resource. */
    public static final String TABLE_RESOURCE = "/dev/simhash/bench/phrase-folding-tw.tsv";

    private static final Map<String, String> TABLE = new HashMap<>();
    private static final Set<Character> FIRST = new HashSet<>();
    private static final int MAX_KEY_CHARS;

    static {
        int[] max = { 0 };
        TsvResource.read(PhraseFolding.class, TABLE_RESOURCE, (k, v) -> {
            TABLE.put(k, v);
            FIRST.add(k.charAt(0));
            max[0] = Math.max(max[0], k.length());
        });
        MAX_KEY_CHARS = max[0];
    }

    private PhraseFolding() {}

    /** Number of phrases in the table. */
    public static int tableSize() {
        return TABLE.size();
    }

    /** The text with every longest-leftmost phrase of the table replaced. */
    public static String fold(String folded) {
        StringBuilder sb = null;
        int copied = 0;
        int n = folded.length();
        for (int i = 0; i < n; ) {
            if (FIRST.contains(folded.charAt(i))) {
                int max = Math.min(MAX_KEY_CHARS, n - i);
                String hit = null;
                int len = 0;
                for (int l = max; l >= 1; l--) {
                    String v = TABLE.get(folded.substring(i, i + l));
                    if (v != null) {
                        hit = v;
                        len = l;
                        break;
                    }
                }
                if (hit != null) {
                    if (sb == null) {
                        sb = new StringBuilder(n + 16);
                    }
                    sb.append(folded, copied, i).append(hit);
                    i += len;
                    copied = i;
                    continue;
                }
            }
            i++;
        }
        if (sb == null) {
            return folded;
        }
        return sb.append(folded, copied, n).toString();
    }
}
