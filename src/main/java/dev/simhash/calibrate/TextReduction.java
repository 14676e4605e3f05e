package dev.simhash.calibrate;

import dev.simhash.breaker.RequestMemory;
import dev.simhash.core.FeatureBag;
import dev.simhash.core.MinHashSketch;
import dev.simhash.core.SimHash;
import dev.simhash.core.TextFingerprinter;
import dev.simhash.mapper.SimHashFieldType;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * The first pass over the sample's texts, one text at a time: counts, and for the documents that need it one analysis of
 * the text, as the field reads it, that gives its fingerprint, its token-bigram sketch (documents with a neighbour: are
 * their pairs related?) and its similarity sketch; and from the documents to edit, their fingerprints and sizes and the
 * edit vocabulary. Memory is charged before the work it is for; the word budgets ({@link Calibration#MAX_EDITED_WORDS},
 * {@link Calibration#MAX_COMPARED_WORDS}) bound the work.
 */
final class TextReduction {

    /** Tokens between two checks for cancellation while a text is analysed. */
    private static final int CHECK_EVERY_TOKENS = 1 << 16;
    /** Transient heap per character while a text is sketched, fingerprinted and its features counted. */
    static final long REDUCE_BYTES_PER_CHAR = 16;
    /** Heap per similarity sketch held for the random pairs: its bytes and the array's header and slot. */
    static final long MINHASH_SKETCH_BYTES = MinHashSketch.BYTES + 24;

    /** The documents whose edited copies are measured, in the sample's order, as the first pass read them. */
    static final class Edited {
        /** Their places in the sample, fingerprints, similarity sketches (null without a sketch) and a hash of their texts. */
        final List<Integer> positions = new ArrayList<>();
        final List<Long> originals = new ArrayList<>();
        final List<byte[]> originalSketches = new ArrayList<>();
        final List<Long> textHashes = new ArrayList<>();
    }

    private final Runnable checkCancelled;
    private final RequestMemory memory;
    private final SampleDocs sample;
    private final CalibrateTargets targets;
    /** The field's similarity sketch when every target index has one (null: the report covers radii only). */
    private final MinHashSketch minhash;
    private final TextEdits.Vocabulary vocabulary;
    private final Edited edited = new Edited();

    private ShingleSketch[] sketches;
    /** Of the sample's documents with a fingerprint and a neighbour: the similarity sketches of their texts. */
    private byte[][] minhashes;
    /** What the text sketches of the documents with a neighbour (token bigrams, and similarity) hold. */
    private long sketchBytes;

    private int withText;
    private int textWithoutFingerprint;
    private int mismatch;
    /** The words of the edited documents' texts, and of the texts compared for related pairs, so far. */
    private long editedWords;
    private long comparedWords;
    /** Texts that would have been edited, or compared, but for the word budgets. */
    private int notEdited;
    private int notCompared;
    private final List<Integer> chars = new ArrayList<>();
    private final List<Integer> words = new ArrayList<>();
    private final List<Integer> features = new ArrayList<>();

    TextReduction(Runnable checkCancelled, RequestMemory memory, SampleDocs sample, CalibrateTargets targets, MinHashSketch minhash,
                  long seed) {
        this.checkCancelled = checkCancelled;
        this.memory = memory;
        this.sample = sample;
        this.targets = targets;
        this.minhash = minhash;
        this.vocabulary = new TextEdits.Vocabulary(TextEdits.Vocabulary.MAX_WORDS_PER_KIND, seed);
        this.sketches = new ShingleSketch[sample.withFingerprint()];
        this.minhashes = minhash == null ? null : new byte[sample.withFingerprint()][];
    }

    /**
     * Receives the hashes of a text's tokens while it is analysed: hands them to the given sketches (either may be null)
     * and stops a cancelled task every {@link #CHECK_EVERY_TOKENS} tokens, so that a long text does not hold a cancelled
     * request.
     */
    static FeatureBag.TokenHashes tokens(ShingleSketch.Builder shingles, MinHashSketch.Accumulator similarity, Runnable checkCancelled) {
        long[] n = new long[1];
        return h -> {
            if (shingles != null) {
                shingles.add(h);
            }
            if (similarity != null) {
                similarity.add(h);
            }
            if (++n[0] % CHECK_EVERY_TOKENS == 0) {
                checkCancelled.run();
            }
        };
    }

    /** Takes the text of the document at {@code position} of the sample (null: none). */
    void reduce(int position, String text) {
        if (text == null) {
            return;
        }
        withText++;
        SampleDocs.Doc d = sample.doc(position);
        int f = sample.fingerprintIndex(position);
        boolean nearDoc = f >= 0 && sample.near(f);
        boolean editCandidate = edited.positions.size() < Calibration.MAX_EDITED_DOCS;
        if (!nearDoc && !editCandidate) {
            return;
        }
        long work = REDUCE_BYTES_PER_CHAR * text.length();
        memory.add(work, "reducing the text of [" + d.id() + "]");
        try {
            int wordCount = TextEdits.wordCount(text, checkCancelled);
            boolean sketch = nearDoc && comparedWords + wordCount <= Calibration.MAX_COMPARED_WORDS;
            boolean edit = editCandidate && editedWords + wordCount <= Calibration.MAX_EDITED_WORDS;
            if (nearDoc && !sketch) {
                notCompared++;
            }
            if (editCandidate && !edit) {
                notEdited++;
            }
            if (!sketch && !edit) {
                return;
            }
            SimHashFieldType type = targets.type(d.index());
            if (sketch) {
                long bytes = ShingleSketch.bytes(ShingleSketch.DEFAULT_SIZE) + (minhash == null ? 0 : MINHASH_SKETCH_BYTES);
                memory.add(bytes, "text sketches");
                sketchBytes += bytes;
                comparedWords += wordCount;
            }
            if (edit && minhash != null) {
                memory.add(MINHASH_SKETCH_BYTES, "similarity sketches of the edited documents");
            }
            ShingleSketch.Builder shingles = sketch ? ShingleSketch.builder(ShingleSketch.DEFAULT_SIZE) : null;
            MinHashSketch.Accumulator similarity = minhash == null ? null : type.sketch().accumulator();
            // one analysis gives the fingerprint, the number of features and the tokens both sketches read
            TextFingerprinter fingerprinter = type.fingerprinter();
            FeatureBag bag = fingerprinter.newBag();
            bag.tokenHashes(tokens(shingles, similarity, checkCancelled));
            fingerprinter.addText(text, bag);
            OptionalLong original = bag.fingerprint();
            byte[] similaritySketch = similarity == null ? null : similarity.sketch();
            if (sketch) {
                sketches[f] = shingles.build();
                if (minhash != null) {
                    minhashes[f] = similaritySketch;
                }
            }
            if (!edit) {
                return;
            }
            if (original.isEmpty()) {
                textWithoutFingerprint++;
                return;
            }
            if (d.stored() == null || d.stored() != original.getAsLong()) {
                mismatch++;
            }
            edited.positions.add(position);
            edited.originals.add(original.getAsLong());
            edited.originalSketches.add(similaritySketch);
            edited.textHashes.add(SimHash.featureHash(text));
            chars.add(text.length());
            words.add(wordCount);
            features.add(bag.distinctFeatures());
            editedWords += wordCount;
            addToVocabulary(text, wordCount);
        } finally {
            memory.release(work);
        }
    }

    /**
     * The vocabulary grows by at most the text's characters and a string per word kept: charged before, then set to what
     * it grew by.
     */
    private void addToVocabulary(String text, int wordCount) {
        long most = TextPages.TEXT_BYTES_PER_CHAR * text.length()
            + TextEdits.Vocabulary.WORD_OVERHEAD_BYTES * Math.min(wordCount, 2L * TextEdits.Vocabulary.MAX_WORDS_PER_KIND);
        memory.add(most, "edit vocabulary");
        long before = vocabulary.bytes();
        try {
            vocabulary.addText(text, checkCancelled);
        } finally {
            memory.release(most);
        }
        memory.add(vocabulary.bytes() - before, "edit vocabulary");
    }

    /** Compares all pairs of the sample's fingerprints, related by the texts' sketches; then the sketches go. */
    SampleDocs.Compared comparePairs() {
        SampleDocs.Compared compared = sample.compare(sketches, minhashes, minhash);
        minhashes = null;
        sketches = null;
        memory.release(sketchBytes);
        return compared;
    }

    Edited edited() {
        return edited;
    }

    TextEdits.Vocabulary vocabulary() {
        return vocabulary;
    }

    /** The sample's counts, with what the searches counted: the documents in the indices and those with a fingerprint. */
    Calibration.Counts counts(long docsTotal, long docsWithFingerprint) {
        return new Calibration.Counts(docsTotal, docsWithFingerprint, sample.size(), sample.size() - sample.withFingerprint(),
            withText, textWithoutFingerprint, mismatch, edited.positions.size(), editedWords, notEdited, notCompared);
    }

    /** The medians of the edited texts' sizes. */
    Calibration.TextSizes sizes() {
        return new Calibration.TextSizes(Calibration.median(chars), Calibration.median(words), Calibration.median(features));
    }
}
