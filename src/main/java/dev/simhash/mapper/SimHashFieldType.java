package dev.simhash.mapper;

import dev.simhash.compat.CompatFieldType;
import dev.simhash.core.BlockTermLayout;
import dev.simhash.core.FingerprintSpec;
import dev.simhash.core.MinHashSketch;
import dev.simhash.core.SimHash;
import dev.simhash.core.TextFingerprinter;

import org.apache.lucene.document.SortedNumericDocValuesField;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.ConstantScoreQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermInSetQuery;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.util.BytesRef;
import org.elasticsearch.index.fielddata.FieldDataContext;
import org.elasticsearch.index.fielddata.IndexFieldData;
import org.elasticsearch.index.mapper.DocValueFetcher;
import org.elasticsearch.index.mapper.ValueFetcher;
import org.elasticsearch.index.query.SearchExecutionContext;
import org.elasticsearch.index.shard.ShardId;
import org.elasticsearch.search.DocValueFormat;

import java.io.IOException;
import java.time.ZoneId;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongPredicate;

/**
 * The field type of a {@code simhash} field: how the query, the scripts, the fold and the report find
 * the fingerprints (doc values of {@link #name()}), the block terms ({@link #blockLayout()}) and the
 * fingerprint spec that turns a query text into a fingerprint the way the documents were fingerprinted.
 */
public final class SimHashFieldType extends CompatFieldType {

    /**
     * The {@code fields} format that reads a document's fingerprint (as a signed long) and its sketch (base64) as one value
     * list, so that one search reads both; on a field without sketches, the fingerprint alone.
     */
    public static final String FINGERPRINT_AND_SKETCH_FORMAT = "long+" + MinHashSketch.ALGORITHM;

    private final SimHashFieldMapper.Input input;
    private final FingerprintSpec.Version version;
    private final FingerprintSpec spec;
    private final TextFingerprinter fingerprinter;
    private final BlockTermLayout blockLayout;
    /** The Lucene field of the sketch (made once: it is named for every document indexed). */
    private final String sketchField;
    private final MinHashSketch sketch;
    /** The node's filters of the band values each shard holds (null: none). */
    private final BandFilters bandFilters;

    SimHashFieldType(String name, SimHashFieldMapper.Input input, FingerprintSpec.Version version, FingerprintSpec spec,
                     TextFingerprinter fingerprinter, MinHashSketch sketch, Map<String, String> meta) {
        this(name, input, version, spec, fingerprinter, sketch, meta, null);
    }

    SimHashFieldType(String name, SimHashFieldMapper.Input input, FingerprintSpec.Version version, FingerprintSpec spec,
                     TextFingerprinter fingerprinter, MinHashSketch sketch, Map<String, String> meta, BandFilters bandFilters) {
        super(name, withVersion(meta, version, sketch));
        this.bandFilters = bandFilters;
        this.input = input;
        this.version = version;
        this.spec = spec;
        this.fingerprinter = fingerprinter;
        this.blockLayout = BlockTermLayout.packed(name);
        this.sketch = sketch;
        this.sketchField = sketchField(name);
    }

    /** The suffix of the Lucene field whose binary doc values hold each document's similarity sketch. */
    public static final String SKETCH_FIELD_SUFFIX = "._minhash";
    /** The field type's meta key that names the sketch (absent: none), so that field capabilities show it. */
    public static final String SKETCH_META = "simhash_sketch";

    /** The similarity sketch stored beside each fingerprint, or null when the field stores none. */
    public MinHashSketch sketch() {
        return sketch;
    }

    /** The sketch's name as the mapping records it; null for {@code input: fingerprint}, which never has one. */
    String sketchName() {
        if (input != SimHashFieldMapper.Input.TEXT) {
            return null;
        }
        return sketch == null ? SimHashFieldMapper.NO_SKETCH : MinHashSketch.ALGORITHM;
    }

    /** The Lucene field of the sketches' binary doc values. */
    public String sketchField() {
        return sketchField;
    }

    /**
     * Which band values ({@link dev.simhash.core.SketchBands#longValues}) some document of the shard that {@code context}
     * searches may hold in this field: a value it answers false for is held by none, so it need not be looked up. Null
     * when that is not known (no sketch, no shard, no filter yet): every value is looked up then.
     */
    public LongPredicate bandValuesHeld(SearchExecutionContext context) {
        if (bandFilters == null || sketch == null || context.getShardId() < 0) {
            return null;
        }
        return bandFilters.mayHold(new ShardId(context.index(), context.getShardId()), sketchField);
    }

    /** The Lucene field of the sketches of the {@code simhash} field {@code fingerprintField}. */
    public static String sketchField(String fingerprintField) {
        return fingerprintField + SKETCH_FIELD_SUFFIX;
    }

    /**
     * The sketches of the {@code simhash} field {@code fingerprintField} in one segment, or null when the segment holds none
     * or does not show the field itself. The sketch and its band terms live in a Lucene field of their own, which a role's
     * field-level security patterns do not name: whoever may not see the fingerprint field may not see its sketch, so
     * every reader of sketches (queries, the {@code fields} formats) goes through here.
     */
    public static BinaryDocValues sketchValues(LeafReader reader, String fingerprintField) throws IOException {
        if (reader.getFieldInfos().fieldInfo(fingerprintField) == null) {
            return null; // hidden (field-level security) or absent: a sketch is only ever stored beside a fingerprint
        }
        return reader.getBinaryDocValues(sketchField(fingerprintField));
    }

    /** The field type's meta key that carries the version, so that field capabilities (fold, report) show it. */
    public static final String VERSION_META = "simhash_version";

    /**
     * The user's {@code meta} plus {@link #VERSION_META}: field capabilities report a field type's meta, which is how the
     * fold and the report learn the version (and so the default radius) with only the caller's read privileges. The
     * mapping itself keeps the user's {@code meta} only.
     */
    private static Map<String, String> withVersion(Map<String, String> meta, FingerprintSpec.Version version, MinHashSketch sketch) {
        Map<String, String> m = new java.util.TreeMap<>(meta);
        m.put(VERSION_META, version.optionName());
        if (sketch != null) {
            m.put(SKETCH_META, MinHashSketch.ALGORITHM);
        }
        return Map.copyOf(m);
    }

    @Override
    public String typeName() {
        return SimHashFieldMapper.CONTENT_TYPE;
    }

    public SimHashFieldMapper.Input input() {
        return input;
    }

    /**
     * The fingerprint version recorded in the mapping: the one the field computes, or with {@code input: fingerprint}
     * the one the stored fingerprints are declared to follow.
     */
    public FingerprintSpec.Version version() {
        return version;
    }

    /** The radius queries, folding and reports use on this field when none is given: its version's documented default. */
    public int defaultMaxDistance() {
        return version.defaultMaxDistance();
    }

    /** How this field fingerprints text; null with {@code input: fingerprint}. */
    public FingerprintSpec spec() {
        return spec;
    }

    /** The fingerprinter of {@link #spec()}, its analyzer resolved in the field's index; null with {@code input: fingerprint}. */
    public TextFingerprinter fingerprinter() {
        return fingerprinter;
    }

    /** The indexed block terms: all four blocks in this field. */
    public BlockTermLayout blockLayout() {
        return blockLayout;
    }

    @Override
    public ValueFetcher valueFetcher(SearchExecutionContext context, String format) {
        if (FINGERPRINT_AND_SKETCH_FORMAT.equals(format) && sketch == null) {
            // the fingerprint alone: one format reads every index of a pattern, with or without sketches
            return new DocValueFetcher(DocValueFormat.RAW, context.getForField(this, FielddataOperation.SEARCH));
        }
        if (MinHashSketch.ALGORITHM.equals(format) || FINGERPRINT_AND_SKETCH_FORMAT.equals(format)) {
            if (sketch == null) {
                throw new IllegalArgumentException("[format] [" + format + "]: field [" + name() + "] stores no similarity sketch (its ["
                    + SimHashFieldMapper.SKETCH + "] is [" + SimHashFieldMapper.NO_SKETCH + "])");
            }
            if (MinHashSketch.ALGORITHM.equals(format)) {
                return new SketchValueFetcher(name());
            }
            return new FingerprintAndSketchFetcher(new DocValueFetcher(DocValueFormat.RAW, context.getForField(this,
                FielddataOperation.SEARCH)), new SketchValueFetcher(name()));
        }
        return new DocValueFetcher(docValueFormat(format, null), context.getForField(this, FielddataOperation.SEARCH));
    }

    /** 16 hex digits by default ({@code hex}); {@code long} gives the signed 64-bit integer. */
    @Override
    public DocValueFormat docValueFormat(String format, ZoneId timeZone) {
        checkNoTimeZone(timeZone);
        if (format == null || HexFormat.FORMAT.equals(format)) {
            return HexFormat.INSTANCE;
        }
        if ("long".equals(format)) {
            return DocValueFormat.RAW;
        }
        throw new IllegalArgumentException("[format] field [" + name() + "] of type [" + typeName() + "] supports the formats [hex] "
            + "(16 hex digits, the default) and [long], got [" + SimHash.abbreviate(format) + "]");
    }

    @Override
    public IndexFieldData.Builder fielddataBuilder(FieldDataContext fieldDataContext) {
        return longFieldData();
    }

    /** Documents with exactly this fingerprint: all four of its block terms. */
    @Override
    public Query termQuery(Object value, SearchExecutionContext context) {
        long h = parseValue(value);
        BooleanQuery.Builder all = new BooleanQuery.Builder();
        for (BytesRef term : blockLayout().terms(h)) {
            all.add(new TermQuery(new Term(name(), term)), BooleanClause.Occur.FILTER);
        }
        return new ConstantScoreQuery(all.build());
    }

    /** Documents with any of these fingerprints: candidates by block 0, verified against the doc values. */
    @Override
    public Query termsQuery(Collection<?> values, SearchExecutionContext context) {
        Set<Long> hashes = new LinkedHashSet<>();
        for (Object v : values) {
            hashes.add(parseValue(v));
        }
        if (hashes.size() == 1) {
            return termQuery(hashes.iterator().next(), context);
        }
        Set<BytesRef> firstBlocks = new LinkedHashSet<>();
        long[] longs = new long[hashes.size()];
        int i = 0;
        for (long h : hashes) {
            firstBlocks.add(blockLayout().term(0, SimHash.block(h, 0)));
            longs[i++] = h;
        }
        BooleanQuery.Builder both = new BooleanQuery.Builder();
        both.add(new TermInSetQuery(name(), List.copyOf(firstBlocks)), BooleanClause.Occur.FILTER);
        both.add(SortedNumericDocValuesField.newSlowSetQuery(name(), longs), BooleanClause.Occur.FILTER);
        return new ConstantScoreQuery(both.build());
    }

    /** A fingerprint given to a term query, search_after or the like: a long, or 16 hex digits / a decimal as a string. */
    private long parseValue(Object value) {
        if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
            return ((Number) value).longValue();
        }
        String s = value instanceof BytesRef b ? b.utf8ToString() : String.valueOf(value);
        try {
            return SimHash.parse(s);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("field [" + name() + "] of type [" + typeName() + "] takes fingerprints (16 hex digits or a "
                + "signed 64-bit integer): " + e.getMessage(), e);
        }
    }
}
