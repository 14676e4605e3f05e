package dev.simhash.query;

import dev.simhash.compat.CompatIndices;
import dev.simhash.compat.CompatShardAction;
import dev.simhash.core.MinHashSketch;
import dev.simhash.mapper.SimHashFieldType;

import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.SortedNumericDocValues;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.BytesRef;
import org.elasticsearch.action.support.ActionFilters;
import org.elasticsearch.cluster.metadata.IndexNameExpressionResolver;
import org.elasticsearch.cluster.service.ClusterService;
import org.elasticsearch.common.io.stream.Writeable;
import org.elasticsearch.common.lucene.uid.Versions;
import org.elasticsearch.index.IndexService;
import org.elasticsearch.index.VersionType;
import org.elasticsearch.index.engine.Engine;
import org.elasticsearch.index.mapper.IdFieldMapper;
import org.elasticsearch.index.mapper.MappedFieldType;
import org.elasticsearch.index.mapper.Uid;
import org.elasticsearch.index.shard.IndexShard;
import org.elasticsearch.index.shard.ShardId;
import org.elasticsearch.indices.IndicesService;
import org.elasticsearch.injection.guice.Inject;
import org.elasticsearch.search.fetch.subphase.FetchSourceContext;
import org.elasticsearch.threadpool.ThreadPool;
import org.elasticsearch.transport.TransportService;

import java.io.IOException;

/**
 * Runs {@link LikedValuesAction} on a copy of the liked document's shard (the local one preferred), as a GET of it would
 * run: first the shard's realtime get, which sees a delete the last refresh has not, then the document's values through
 * the caller's searcher of that copy, which shows what a search would (document- and field-level security, a document
 * refreshed). Anything else is {@link LikedValuesResponse#NOT_READ}.
 */
public final class TransportLikedValuesAction extends CompatShardAction<LikedValuesRequest, LikedValuesResponse> {

    private static final String SOURCE = "simhash like";

    private final IndicesService indicesService;

    @Inject
    public TransportLikedValuesAction(ThreadPool threadPool, ClusterService clusterService, TransportService transportService,
                                      ActionFilters actionFilters, CompatIndices indices, IndexNameExpressionResolver resolver,
                                      IndicesService indicesService) {
        super(LikedValuesAction.NAME, threadPool, clusterService, transportService, actionFilters, indices, resolver,
            LikedValuesRequest::new, threadPool.executor(ThreadPool.Names.GET));
        this.indicesService = indicesService;
    }

    @Override
    protected int shardOf(LikedValuesRequest request) {
        return -1;
    }

    @Override
    protected String[] documentOf(LikedValuesRequest request) {
        return new String[] { request.id(), request.routing() };
    }

    @Override
    protected Writeable.Reader<LikedValuesResponse> getResponseReader() {
        return LikedValuesResponse::new;
    }

    @Override
    protected LikedValuesResponse shardOperation(LikedValuesRequest request, ShardId shardId) throws IOException {
        IndexService index = indicesService.indexServiceSafe(shardId.getIndex());
        MappedFieldType type = index.mapperService().fieldType(request.field());
        if (!(type instanceof SimHashFieldType simhash)) {
            return LikedValuesResponse.NOT_READ; // the processor's object, another type, no such field: the steps say which
        }
        IndexShard shard = index.getShard(shardId.id());
        if (!shard.getService().get(request.id(), new String[0], true, Versions.MATCH_ANY, VersionType.INTERNAL,
            FetchSourceContext.DO_NOT_FETCH_SOURCE, false).isExists()) {
            return LikedValuesResponse.NOT_READ;
        }
        try (Engine.Searcher searcher = shard.acquireSearcher(SOURCE)) {
            BytesRef uid = Uid.encodeId(request.id());
            for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
                int doc = liveDoc(leaf.reader(), uid);
                if (doc >= 0) {
                    return values(leaf.reader(), doc, request.field(), simhash.sketch() != null, shardId.getIndexName());
                }
            }
        }
        return LikedValuesResponse.NOT_READ;
    }

    /**
     * The live document of {@code reader} whose {@code _id} is {@code uid}, or -1: the last one, since a document's nested
     * objects are indexed before it, with its {@code _id}.
     */
    private static int liveDoc(LeafReader reader, BytesRef uid) throws IOException {
        Terms terms = reader.terms(IdFieldMapper.NAME);
        if (terms == null) {
            return -1;
        }
        TermsEnum ids = terms.iterator();
        if (!ids.seekExact(uid)) {
            return -1;
        }
        Bits live = reader.getLiveDocs();
        PostingsEnum docs = ids.postings(null, PostingsEnum.NONE);
        int found = -1;
        for (int doc = docs.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = docs.nextDoc()) {
            if (live == null || live.get(doc)) {
                found = doc;
            }
        }
        return found;
    }

    /**
     * The document's first fingerprint (the smallest, as its doc values keep them) and, when the field stores sketches, its
     * sketch; a field the reader hides (field-level security) has neither.
     */
    private static LikedValuesResponse values(LeafReader reader, int doc, String field, boolean sketches, String index)
        throws IOException {
        SortedNumericDocValues hashes = reader.getSortedNumericDocValues(field);
        if (hashes == null || !hashes.advanceExact(doc)) {
            return LikedValuesResponse.NOT_READ;
        }
        long hash = hashes.nextValue();
        if (!sketches) {
            return new LikedValuesResponse(index, hash, null);
        }
        BinaryDocValues values = SimHashFieldType.sketchValues(reader, field);
        if (values == null || !values.advanceExact(doc)) {
            return LikedValuesResponse.NOT_READ;
        }
        BytesRef sketch = values.binaryValue();
        if (sketch.length != MinHashSketch.BYTES) {
            return LikedValuesResponse.NOT_READ;
        }
        return new LikedValuesResponse(index, hash, BytesRef.deepCopyOf(sketch).bytes);
    }
}
