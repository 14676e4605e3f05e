package dev.simhash.calibrate;

import dev.simhash.breaker.RequestMemory;
import dev.simhash.core.MinHashSketch;
import dev.simhash.core.SimHash;
import dev.simhash.core.TextFingerprinter;
import dev.simhash.mapper.SimHashFieldType;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * The second pass over the texts of the documents to edit: edited copies of each text at every rate of
 * {@link Calibration#EDIT_RATES} (edits linear in the text), each analysed once for its fingerprint and, on a field with a
 * sketch, its similarity sketch; their distances from the text's go to the {@link EditRecall}s, their similarities to the
 * {@link EditSimilarity}s.
 */
final class EditedCopies {

    /**
     * Transient heap per character while a text's edited copies are made and fingerprinted: the copy (its builder and its
     * string, UTF-16 at worst, with room for insertions), the plan (an int per edit) and the copy's analysis.
     */
    static final long EDIT_BYTES_PER_CHAR = 24;

    private final Runnable checkCancelled;
    private final RequestMemory memory;
    private final SampleDocs sample;
    private final CalibrateTargets targets;
    private final MinHashSketch minhash;
    private final long seed;
    private final TextReduction.Edited edited;
    private final TextEdits.Vocabulary vocabulary;
    private final List<EditRecall> recalls = new ArrayList<>();
    /** One per edit rate on a field with a sketch; none without. */
    private final List<EditSimilarity> similarities = new ArrayList<>();
    private int editedIndex;

    EditedCopies(Runnable checkCancelled, RequestMemory memory, SampleDocs sample, CalibrateTargets targets, MinHashSketch minhash,
                 long seed, TextReduction firstPass) {
        this.checkCancelled = checkCancelled;
        this.memory = memory;
        this.sample = sample;
        this.targets = targets;
        this.minhash = minhash;
        this.seed = seed;
        this.edited = firstPass.edited();
        this.vocabulary = firstPass.vocabulary();
        for (double rate : Calibration.EDIT_RATES) {
            recalls.add(new EditRecall(rate));
            if (minhash != null) {
                similarities.add(new EditSimilarity(rate));
            }
        }
    }

    /** The places in the sample of the documents to edit, in the order their texts are to be read. */
    List<Integer> positions() {
        return edited.positions;
    }

    List<EditRecall> recalls() {
        return recalls;
    }

    List<EditSimilarity> similarities() {
        return similarities;
    }

    /** Takes the text of the next document to edit, at {@code position} of the sample (null: deleted since the first pass). */
    void edit(int position, String text) {
        SampleDocs.Doc d = sample.doc(position);
        int e = editedIndex++;
        if (text == null) {
            return; // deleted since the first pass
        }
        if (!similarities.isEmpty()) {
            memory.add(EditSimilarity.BYTES_PER_COPY * similarities.size(), "similarities of edited copies");
        }
        long work = EDIT_BYTES_PER_CHAR * text.length();
        memory.add(work, "editing the text of [" + d.id() + "]");
        try {
            SimHashFieldType type = targets.type(d.index());
            TextFingerprinter fingerprinter = type.fingerprinter();
            OptionalLong original;
            byte[] originalSketch;
            if (SimHash.featureHash(text) == edited.textHashes.get(e)) {
                original = OptionalLong.of(edited.originals.get(e));
                originalSketch = edited.originalSketches.get(e);
            } else {
                // the document has changed since the first pass: the text as it is now
                MinHashSketch.Accumulator similarity = minhash == null ? null : type.sketch().accumulator();
                original = fingerprinter.fingerprint(text, TextReduction.tokens(null, similarity, checkCancelled));
                originalSketch = similarity == null ? null : similarity.sketch();
            }
            if (original.isEmpty()) {
                return;
            }
            for (int r = 0; r < recalls.size(); r++) {
                TextEdits.Copy copy = TextEdits.edit(text, recalls.get(r).rate(), vocabulary, TextEdits.random(seed, position, r),
                    checkCancelled);
                MinHashSketch.Accumulator similarity = similarities.isEmpty() ? null : type.sketch().accumulator();
                OptionalLong fp = fingerprinter.fingerprint(copy.text(), TextReduction.tokens(null, similarity, checkCancelled));
                int distance = fp.isEmpty() ? -1 : SimHash.distance(original.getAsLong(), fp.getAsLong());
                recalls.get(r).add(distance, copy.edits());
                if (similarity != null) {
                    byte[] copySketch = similarity.sketch();
                    similarities.get(r).add(distance, originalSketch, copySketch);
                }
            }
        } finally {
            memory.release(work);
        }
    }
}
