package dev.simhash.compat;

import org.elasticsearch.action.ActionResponse;
import org.elasticsearch.action.support.ActionFilters;
import org.elasticsearch.action.support.single.shard.SingleShardRequest;
import org.elasticsearch.action.support.single.shard.TransportSingleShardAction;
import org.elasticsearch.cluster.ClusterState;
import org.elasticsearch.cluster.metadata.IndexNameExpressionResolver;
import org.elasticsearch.cluster.routing.ShardsIterator;
import org.elasticsearch.cluster.service.ClusterService;
import org.elasticsearch.common.io.stream.Writeable;
import org.elasticsearch.threadpool.ThreadPool;
import org.elasticsearch.transport.TransportService;

import java.util.concurrent.Executor;

/**
 * Base of a transport action that runs on one copy of one shard named by its request (a concrete index, no alias), by its
 * number or by the id and routing of a document it holds, on the node that holds it (the local copy preferred for a
 * document), trying the next copy when one fails: 8.19 and 9.0 route by the cluster state.
 */
public abstract class CompatShardAction<Q extends SingleShardRequest<Q>, R extends ActionResponse> extends TransportSingleShardAction<Q, R> {

    protected CompatShardAction(String name, ThreadPool threadPool, ClusterService clusterService, TransportService transportService,
                                ActionFilters actionFilters, CompatIndices indices, IndexNameExpressionResolver resolver,
                                Writeable.Reader<Q> reader, Executor executor) {
        super(name, threadPool, clusterService, transportService, actionFilters, resolver, reader, executor);
    }

    /** The number of the shard {@code request} names in its index, or -1 when {@link #documentOf} chooses it. */
    protected abstract int shardOf(Q request);

    /**
     * The id and routing (null for none) of the document whose shard runs {@code request}, when {@link #shardOf} is -1: the
     * shard a GET of that document reads.
     */
    protected String[] documentOf(Q request) {
        throw new IllegalStateException("[" + request + "] names no shard");
    }

    @Override
    protected final boolean resolveIndex(Q request) {
        return false;
    }

    @Override
    protected final ShardsIterator shards(ClusterState state, InternalRequest request) {
        int shard = shardOf(request.request());
        if (shard < 0) {
            String[] document = documentOf(request.request());
            return clusterService.operationRouting().getShards(state, request.concreteIndex(), document[0], document[1], "_local");
        }
        return state.routingTable().shardRoutingTable(request.concreteIndex(), shard).activeInitializingShardsRandomIt();
    }
}
