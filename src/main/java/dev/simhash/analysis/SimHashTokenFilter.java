package dev.simhash.analysis;

import dev.simhash.core.FeatureBag;
import dev.simhash.core.FingerprintOptions;
import dev.simhash.core.SimHash;

import org.apache.lucene.analysis.TokenFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.analysis.tokenattributes.OffsetAttribute;
import org.apache.lucene.analysis.tokenattributes.PositionIncrementAttribute;
import org.apache.lucene.analysis.tokenattributes.PositionLengthAttribute;
import org.apache.lucene.analysis.tokenattributes.TypeAttribute;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;

/**
 * Consumes every token of its input and emits the simhash-v1 fingerprint of the document: the
 * 16-hex-digit hash and/or the four block terms {@code b0_xxxx .. b3_xxxx}. Every emitted token
 * spans the whole input (offsets 0 to the final offset). Input without enough features emits nothing.
 */
public final class SimHashTokenFilter extends TokenFilter {

    /** Token type of the hash token. */
    public static final String HASH_TYPE = "simhash";
    /** Token type of a block token. */
    public static final String BLOCK_TYPE = "simhash_block";

    /** What the filter emits. */
    public enum Output {
        /** One token: the fingerprint as 16 lowercase hex digits. */
        HASH,
        /** Four tokens {@code b<j>_<4 hex digits>}, block 0 first. */
        BLOCKS,
        /** The hash token followed by the four block tokens. */
        BOTH;

        public String optionName() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** @throws IllegalArgumentException naming the accepted values */
        public static Output fromOption(String value) {
            for (Output o : values()) {
                if (o.optionName().equals(value)) {
                    return o;
                }
            }
            throw new IllegalArgumentException("[output] must be one of [hash, blocks, both], got [" + value + "]");
        }
    }

    /** The block token of block j with value v, e.g. {@code b2_03fa}. */
    public static String blockToken(int j, int value) {
        return "b" + j + "_" + SimHash.blockTerm(value);
    }

    private final CharTermAttribute termAtt = addAttribute(CharTermAttribute.class);
    private final OffsetAttribute offsetAtt = addAttribute(OffsetAttribute.class);
    private final PositionIncrementAttribute posIncAtt = addAttribute(PositionIncrementAttribute.class);
    private final PositionLengthAttribute posLenAtt = addAttribute(PositionLengthAttribute.class);
    private final TypeAttribute typeAtt = addAttribute(TypeAttribute.class);

    private final FeatureBag bag;
    private final Output output;
    private final List<String> pending = new ArrayList<>(5);
    private final List<String> pendingTypes = new ArrayList<>(5);
    private int next;
    private boolean drained;
    private boolean inputEnded;
    private int finalOffset;

    public SimHashTokenFilter(TokenStream input, FingerprintOptions options, Output output) {
        super(input);
        this.bag = new FeatureBag(options);
        this.output = output;
    }

    @Override
    public boolean incrementToken() throws IOException {
        if (!drained) {
            drain();
        }
        if (next >= pending.size()) {
            return false;
        }
        clearAttributes();
        termAtt.setEmpty().append(pending.get(next));
        typeAtt.setType(pendingTypes.get(next));
        offsetAtt.setOffset(0, finalOffset);
        posIncAtt.setPositionIncrement(1);
        posLenAtt.setPositionLength(1);
        next++;
        return true;
    }

    private void drain() throws IOException {
        drained = true;
        while (input.incrementToken()) {
            bag.addToken(termAtt.toString());
        }
        endInput();
        OptionalLong fp = bag.fingerprint();
        bag.reset();
        if (fp.isEmpty()) {
            return;
        }
        long h = fp.getAsLong();
        if (output != Output.BLOCKS) {
            pending.add(SimHash.toHex(h));
            pendingTypes.add(HASH_TYPE);
        }
        if (output != Output.HASH) {
            for (int j = 0; j < SimHash.BLOCKS; j++) {
                pending.add(blockToken(j, SimHash.block(h, j)));
                pendingTypes.add(BLOCK_TYPE);
            }
        }
    }

    private void endInput() throws IOException {
        input.end();
        inputEnded = true;
        finalOffset = offsetAtt.endOffset();
    }

    @Override
    public void end() throws IOException {
        if (!inputEnded) {
            endInput(); // input.end() exactly once, also when draining failed half-way
        }
        endAttributes();
        offsetAtt.setOffset(finalOffset, finalOffset);
    }

    @Override
    public void reset() throws IOException {
        super.reset();
        bag.reset();
        pending.clear();
        pendingTypes.clear();
        next = 0;
        drained = false;
        inputEnded = false;
        finalOffset = 0;
    }
}
