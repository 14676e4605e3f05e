package dev.simhash.core;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ScriptAwareTokenizerTest {

    private final ScriptAwareTokenizer chars = new ScriptAwareTokenizer(ScriptAwareTokenizer.Mode.HAN_CHARACTERS);
    private final ScriptAwareTokenizer words = new ScriptAwareTokenizer(ScriptAwareTokenizer.Mode.HAN_WORDS);

    @Test
    void hanCharactersAreSingleTokensAndOtherTextUnicodeWords() {
        assertEquals(List.of("国", "家", "统", "计", "局", "发", "布", "cpi", "0.4"), chars.tokens(CharFolding.fold("國家統計局發佈CPI，0.4%。")));
        assertEquals(List.of("don't", "stop", "e.g", "u.s.a", "3.14"), chars.tokens("don't stop, e.g. U.S.A 3.14").stream()
            .map(s -> s.toLowerCase(java.util.Locale.ROOT)).toList());
    }

    @Test
    void hanWordsSegmentsHanRunsWithSmartcn() {
        List<String> t = words.tokens("国家统计局今天发布数据 elasticsearch 9.5");
        assertEquals("elasticsearch", t.get(t.size() - 2));
        assertEquals("9.5", t.get(t.size() - 1));
        assertEquals("国家统计局今天发布数据", String.join("", t.subList(0, t.size() - 2)));
        assertEquals(List.of(), words.tokens("，。！ "));
        assertEquals(List.of(), chars.tokens(""));
    }
}
