package dev.simhash.calibrate;

/**
 * When two sampled texts are near-duplicates by their content, independently of their fingerprints: when their token
 * bigrams, the tokens read as the field reads the text (simhash-v2: folded text, so a traditional and a simplified
 * Chinese copy of one text are one text; simhash-v1: its analyzer's tokens), have a Jaccard similarity of at least
 * {@link #RELATED_JACCARD}, estimated by {@link ShingleSketch}.
 */
public final class TextSimilarity {

    /** Pairs at or above this bigram Jaccard similarity are related: they share most of their token sequences. */
    public static final double RELATED_JACCARD = 0.5;

    private TextSimilarity() {}
}
