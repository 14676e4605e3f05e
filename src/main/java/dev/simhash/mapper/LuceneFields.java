package dev.simhash.mapper;

import dev.simhash.core.BlockTermLayout;
import dev.simhash.core.SketchBands;

import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.BytesTermAttribute;
import org.apache.lucene.document.BinaryDocValuesField;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.FieldType;
import org.apache.lucene.document.SortedNumericDocValuesField;
import org.apache.lucene.index.IndexOptions;
import org.apache.lucene.util.BytesRef;

import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The Lucene fields of one fingerprint of a {@code simhash} field: the 64-bit value as a sorted-numeric
 * doc value (read to verify distances, by scripts, fold and report) and the four block terms indexed
 * in the same field ({@link BlockTermLayout#packed}), docs only, no norms; a field with a similarity sketch adds the
 * sketch as a binary doc value of its own Lucene field ({@link SimHashFieldType#sketchField()}), and in that field the
 * sketch's band values ({@link SketchBands}) as one-dimensional points of {@value SketchBands#TERM_BYTES} bytes: nearly
 * every value is one document's own, which points take in at the cost of a copy, where terms would each grow the
 * term dictionary and start a posting list. All read the value from a
 * supplier when the document is indexed, i.e. after the whole document has been parsed, so that a text
 * arriving in several values (arrays, several {@code copy_to} sources) gives one fingerprint.
 */
final class LuceneFields {

    static final FieldType TERMS_TYPE;

    static {
        FieldType t = new FieldType();
        t.setIndexOptions(IndexOptions.DOCS);
        t.setTokenized(false); // no analyzer: the terms come from our own token stream
        t.setOmitNorms(true);
        t.setStored(false);
        t.freeze();
        TERMS_TYPE = t;
    }

    /** A band value: a one-dimensional point of {@value SketchBands#TERM_BYTES} bytes. */
    static final FieldType BAND_POINT_TYPE;

    static {
        FieldType t = new FieldType();
        t.setDimensions(1, SketchBands.VALUE_BYTES);
        t.freeze();
        BAND_POINT_TYPE = t;
    }

    private LuceneFields() {}

    /** The doc value: a fingerprint read from {@code value} when Lucene indexes the document. */
    static Field docValue(String name, LongSupplier value) {
        return new Field(name, SortedNumericDocValuesField.TYPE) {
            @Override
            public Number numericValue() {
                return value.getAsLong();
            }
        };
    }

    /** The similarity sketch as a binary doc value, read from {@code value} when Lucene indexes the document. */
    static Field sketch(String name, Supplier<byte[]> value) {
        return new SketchField(name, value);
    }

    /** A document's similarity sketch (its binary doc value): how the shard's band filter finds it among the document's fields. */
    static final class SketchField extends Field {
        private final Supplier<byte[]> value;

        SketchField(String name, Supplier<byte[]> value) {
            super(name, BinaryDocValuesField.TYPE);
            this.value = value;
        }

        /** The sketch's bytes, or null when the document has none. */
        byte[] sketch() {
            return value.get();
        }

        @Override
        public BytesRef binaryValue() {
            byte[] b = value.get();
            // a text with a fingerprint has tokens, so a sketch; an empty value (read as no sketch) if it ever had none
            return b == null ? new BytesRef() : new BytesRef(b);
        }
    }

    /** The four block terms of the fingerprint read from {@code value} when Lucene indexes the document. */
    static Field blockTerms(String name, BlockTermLayout layout, LongSupplier value) {
        return terms(name, () -> layout.terms(value.getAsLong()));
    }

    /** Band {@code band}'s value of the sketch whose bands {@code bands} gives when Lucene indexes the document. */
    static Field sketchBand(String name, int band, Supplier<BytesRef[]> bands) {
        return new Field(name, BAND_POINT_TYPE) {
            @Override
            public BytesRef binaryValue() {
                BytesRef[] all = bands.get();
                // a text with a fingerprint has tokens, so a sketch; a value of zeros (verified against no sketch) if it ever had none
                return band < all.length ? all[band] : new BytesRef(new byte[SketchBands.VALUE_BYTES]);
            }
        };
    }

    private static Field terms(String name, Supplier<BytesRef[]> value) {
        return new Field(name, TERMS_TYPE) {
            @Override
            public TokenStream tokenStream(Analyzer analyzer, TokenStream reuse) {
                BytesRef[] terms = value.get();
                // Lucene hands back the stream it got for this field last time: reuse it, as Lucene's own fields do
                if (reuse instanceof TermsStream s) {
                    s.terms = terms;
                    return s;
                }
                return new TermsStream(terms);
            }
        };
    }

    /** Emits the given binary terms, one per position. */
    private static final class TermsStream extends TokenStream {
        private final BytesTermAttribute term = addAttribute(BytesTermAttribute.class);
        private BytesRef[] terms;
        private int next;

        TermsStream(BytesRef[] terms) {
            this.terms = terms;
        }

        @Override
        public boolean incrementToken() {
            if (next == terms.length) {
                return false;
            }
            clearAttributes();
            term.setBytesRef(terms[next++]);
            return true;
        }

        @Override
        public void reset() {
            next = 0;
        }
    }
}
