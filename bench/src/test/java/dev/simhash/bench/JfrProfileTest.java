package dev.simhash.bench;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class JfrProfileTest {

    @Test
    void theSketchStepsWinOverTheInnermostFrame() {
        // mix is inlined into finish: the sample is densification, not "JDK" or shingle hashing
        assertEquals("sketch: finish (densify, pack bits)", JfrProfile.categoryOf(List.of("dev.simhash.core.MinHashSketch.mix",
            "dev.simhash.core.MinHashSketch.finish", "dev.simhash.core.MinHashSketch$Shingles.sketch",
            "dev.simhash.mapper.LuceneFields$2.binaryValue", "org.apache.lucene.index.IndexingChain.processDocument")));
        assertEquals("sketch: shingle hashing, bins", JfrProfile.categoryOf(List.of("dev.simhash.core.MinHashSketch.mix",
            "dev.simhash.core.MinHashSketch$Shingles.addToken", "dev.simhash.core.FeatureBag.addAsciiToken")));
    }

    @Test
    void otherwiseTheInnermostFrameOutsideTheJdkDecides() {
        assertEquals("fingerprint: folding (CharFolding)", JfrProfile.categoryOf(List.of("java.lang.Character.toLowerCase",
            "dev.simhash.core.CharFolding.foldChars", "dev.simhash.core.TextFingerprinter.addTokens")));
        assertEquals("Lucene: terms hash (in-RAM postings)", JfrProfile.categoryOf(List.of("java.util.Arrays.equals",
            "org.apache.lucene.util.BytesRefHash.findHash", "org.apache.lucene.index.IndexingChain$PerField.invert")));
        assertEquals("Lucene: flush (writing segments)", JfrProfile.categoryOf(List.of("org.apache.lucene.util.BytesRefHash.sort",
            "org.apache.lucene.index.DocumentsWriterPerThread.flush")));
        assertEquals("JDK / other", JfrProfile.categoryOf(List.of("java.lang.Thread.run")));
    }
}
