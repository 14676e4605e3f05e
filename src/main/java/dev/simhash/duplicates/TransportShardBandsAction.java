package dev.simhash.duplicates;

import dev.simhash.breaker.RequestMemory;
import dev.simhash.compat.CompatIndices;
import dev.simhash.compat.CompatShardAction;

import org.elasticsearch.action.support.ActionFilters;
import org.elasticsearch.cluster.metadata.IndexNameExpressionResolver;
import org.elasticsearch.cluster.service.ClusterService;
import org.elasticsearch.common.breaker.CircuitBreaker;
import org.elasticsearch.injection.guice.Inject;
import org.elasticsearch.common.io.stream.Writeable;
import org.elasticsearch.common.util.concurrent.EsExecutors;
import org.elasticsearch.index.engine.Engine;
import org.elasticsearch.index.shard.IndexShard;
import org.elasticsearch.index.shard.ShardId;
import org.elasticsearch.indices.IndicesService;
import org.elasticsearch.indices.breaker.CircuitBreakerService;
import org.elasticsearch.threadpool.ThreadPool;
import org.elasticsearch.transport.TransportService;

import java.io.IOException;

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
            // the bands split among the node's processors, as the report's own grouping does
            int threads = EsExecutors.allocatedProcessors(clusterService.getSettings());
            return switch (request.mode()) {
                case COUNT -> new ShardBandsResponse(docs, new long[0], 0, new String[0], new String[0], new long[0], new byte[0]);
                case VALUES -> new ShardBandsResponse(docs, scan.values(request.partition(), request.partitions()), 0, new String[0],
                    new String[0], new long[0], new byte[0]);
                case CANDIDATES -> candidates(docs, scan.candidates(request.shared(), threadPool.generic(), threads, true));
                // the page's members alone have their ids read
                case GROUPS -> new ShardBandsResponse(docs, scan.group(scan.candidates(new long[0], threadPool.generic(), threads, false),
                    request.verification(), threadPool.generic(), threads, request.from(), request.size()));
            };
        }
    }

    private static ShardBandsResponse candidates(long docs, ShardBandScan.Candidates found) {
        return new ShardBandsResponse(docs, new long[0], found.size, found.ids, found.routings, found.fingerprints, found.sketches);
    }
}
