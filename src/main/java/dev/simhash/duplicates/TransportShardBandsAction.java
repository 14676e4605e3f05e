package dev.simhash.duplicates;

import dev.simhash.breaker.RequestMemory;
import dev.simhash.compat.CompatIndices;
import dev.simhash.compat.CompatShardAction;
import dev.simhash.core.MinHashSketch;

import org.elasticsearch.action.support.ActionFilters;
import org.elasticsearch.cluster.metadata.IndexNameExpressionResolver;
import org.elasticsearch.cluster.service.ClusterService;
import org.elasticsearch.common.breaker.CircuitBreaker;
import org.elasticsearch.injection.guice.Inject;
import org.elasticsearch.common.io.stream.Writeable;
import org.elasticsearch.index.engine.Engine;
import org.elasticsearch.index.shard.IndexShard;
import org.elasticsearch.index.shard.ShardId;
import org.elasticsearch.indices.IndicesService;
import org.elasticsearch.indices.breaker.CircuitBreakerService;
import org.elasticsearch.threadpool.ThreadPool;
import org.elasticsearch.transport.TransportService;

import java.io.IOException;
import java.util.List;

/**
 * Runs {@link ShardBandsAction} on the node that holds a copy of the shard, with the caller's searcher of that copy (so
 * document- and field-level security apply), its arrays charged to the node's request breaker. Another copy is tried when
 * one fails, as for a get.
 */
public final class TransportShardBandsAction extends CompatShardAction<ShardBandsRequest, ShardBandsResponse> {

    private static final String MEMORY_LABEL = "simhash duplicates shard bands";

    private final IndicesService indicesService;
    private final CircuitBreakerService breakers;

    @Inject
    public TransportShardBandsAction(ThreadPool threadPool, ClusterService clusterService, TransportService transportService,
                                     ActionFilters actionFilters, CompatIndices indices, IndexNameExpressionResolver resolver,
                                     IndicesService indicesService, CircuitBreakerService breakers) {
        super(ShardBandsAction.NAME, threadPool, clusterService, transportService, actionFilters, indices, resolver,
            ShardBandsRequest::new, threadPool.executor(ThreadPool.Names.SEARCH));
        this.indicesService = indicesService;
        this.breakers = breakers;
    }

    @Override
    protected int shardOf(ShardBandsRequest request) {
        return request.shard();
    }

    @Override
    protected Writeable.Reader<ShardBandsResponse> getResponseReader() {
        return ShardBandsResponse::new;
    }

    @Override
    protected ShardBandsResponse shardOperation(ShardBandsRequest request, ShardId shardId) throws IOException {
        IndexShard shard = indicesService.indexServiceSafe(shardId.getIndex()).getShard(shardId.id());
        try (RequestMemory memory = new RequestMemory(breakers.getBreaker(CircuitBreaker.REQUEST), MEMORY_LABEL + ": ");
             Engine.Searcher searcher = shard.acquireSearcher(MEMORY_LABEL)) {
            ShardBandScan scan = new ShardBandScan(searcher.getIndexReader(), request.field(),
                bytes -> memory.add(bytes, "band values of a shard"), () -> {});
            long docs = scan.docs();
            return switch (request.mode()) {
                case COUNT -> new ShardBandsResponse(docs, new long[0], new String[0], new String[0], new long[0], new byte[0]);
                case VALUES -> new ShardBandsResponse(docs, scan.values(request.partition(), request.partitions()), new String[0],
                    new String[0], new long[0], new byte[0]);
                case CANDIDATES -> candidates(docs, scan.candidates(request.shared()));
            };
        }
    }

    private static ShardBandsResponse candidates(long docs, List<ShardBandScan.Candidate> found) {
        int n = found.size();
        String[] ids = new String[n];
        String[] routings = new String[n];
        long[] fingerprints = new long[n];
        byte[] sketches = new byte[n * MinHashSketch.BYTES];
        for (int i = 0; i < n; i++) {
            ShardBandScan.Candidate c = found.get(i);
            ids[i] = c.id();
            routings[i] = c.routing();
            fingerprints[i] = c.fingerprint();
            System.arraycopy(c.sketch(), 0, sketches, i * MinHashSketch.BYTES, MinHashSketch.BYTES);
        }
        return new ShardBandsResponse(docs, new long[0], ids, routings, fingerprints, sketches);
    }
}
