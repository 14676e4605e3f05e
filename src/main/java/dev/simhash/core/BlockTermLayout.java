package dev.simhash.core;

import org.apache.lucene.util.BytesRef;

/**
 * Where and how the four 16-bit blocks of a fingerprint are indexed as exact-match terms, so that
 * candidates within r bits can be found by probing block values (see {@link BlockProbes}).
 * Two layouts exist:
 * <ul>
 *   <li>{@link #hexFields}: the processor's object form, one keyword field per block
 *       ({@code b0}..{@code b3}), each term the block as 4 lowercase hex digits;</li>
 *   <li>{@link #packed}: the {@code simhash} field type, all four blocks in the field itself, each
 *       term 3 bytes: the block number j, then the block's value big-endian. Terms of block j sort
 *       together, so the term dictionary holds at most 4 x 65536 terms.</li>
 * </ul>
 */
public abstract sealed class BlockTermLayout {

    private BlockTermLayout() {}

    /** The indexed field holding block j's terms. */
    public abstract String field(int block);

    /** The term of block j with the given 16-bit value. */
    public abstract BytesRef term(int block, int value);

    /** The block value a term of block j stands for, or -1 when the term is not one of block j's. */
    public abstract int value(int block, BytesRef term);

    /** Where block j's terms start in the sorted term dictionary of {@link #field(int)}. */
    public abstract BytesRef blockStart(int block);

    /** Whether a term that sorts after {@link #blockStart(int)} lies beyond the terms of block j. */
    public abstract boolean pastBlock(int block, BytesRef term);

    /** The four terms of a fingerprint, block 0 first. */
    public BytesRef[] terms(long fingerprint) {
        BytesRef[] terms = new BytesRef[SimHash.BLOCKS];
        for (int j = 0; j < SimHash.BLOCKS; j++) {
            terms[j] = term(j, SimHash.block(fingerprint, j));
        }
        return terms;
    }

    /** The processor's object form: block j in {@code fields[j]} as a 4-hex-digit term. */
    public static BlockTermLayout hexFields(String[] fields) {
        return new HexFields(fields);
    }

    /** The field type's form: every block in {@code field}, as 3-byte terms [j, high byte, low byte]. */
    public static BlockTermLayout packed(String field) {
        return new Packed(field);
    }

    private static final class HexFields extends BlockTermLayout {
        private final String[] fields;

        HexFields(String[] fields) {
            if (fields.length != SimHash.BLOCKS) {
                throw new IllegalArgumentException("expected " + SimHash.BLOCKS + " block fields, got " + fields.length);
            }
            this.fields = fields.clone();
        }

        @Override
        public String field(int block) {
            return fields[block];
        }

        @Override
        public BytesRef term(int block, int value) {
            return new BytesRef(SimHash.blockTerm(value));
        }

        @Override
        public int value(int block, BytesRef term) {
            if (term.length != 4) {
                return -1;
            }
            int v = 0;
            for (int i = 0; i < 4; i++) {
                int d = Character.digit(term.bytes[term.offset + i], 16);
                if (d < 0) {
                    return -1; // data not written by the processor
                }
                v = (v << 4) | d;
            }
            return v;
        }

        @Override
        public BytesRef blockStart(int block) {
            return new BytesRef();
        }

        @Override
        public boolean pastBlock(int block, BytesRef term) {
            return false; // each block has a field of its own: walk it to the end
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof HexFields other && java.util.Arrays.equals(fields, other.fields);
        }

        @Override
        public int hashCode() {
            return java.util.Arrays.hashCode(fields);
        }

        @Override
        public String toString() {
            return java.util.Arrays.toString(fields);
        }
    }

    private static final class Packed extends BlockTermLayout {
        private final String field;

        Packed(String field) {
            this.field = java.util.Objects.requireNonNull(field);
        }

        @Override
        public String field(int block) {
            return field;
        }

        @Override
        public BytesRef term(int block, int value) {
            return new BytesRef(new byte[] { (byte) block, (byte) (value >>> 8), (byte) value });
        }

        @Override
        public int value(int block, BytesRef term) {
            if (term.length != 3 || term.bytes[term.offset] != block) {
                return -1;
            }
            return ((term.bytes[term.offset + 1] & 0xFF) << 8) | (term.bytes[term.offset + 2] & 0xFF);
        }

        @Override
        public BytesRef blockStart(int block) {
            return new BytesRef(new byte[] { (byte) block });
        }

        @Override
        public boolean pastBlock(int block, BytesRef term) {
            return term.length == 0 || (term.bytes[term.offset] & 0xFF) != block;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Packed other && field.equals(other.field);
        }

        @Override
        public int hashCode() {
            return field.hashCode();
        }

        @Override
        public String toString() {
            return field + "[packed]";
        }
    }
}
