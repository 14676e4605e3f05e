package dev.simhash.fold;

import org.elasticsearch.client.internal.node.NodeClient;
import org.elasticsearch.features.NodeFeature;
import org.elasticsearch.rest.BaseRestHandler;
import org.elasticsearch.rest.RestRequest;
import org.elasticsearch.rest.action.RestCancellableNodeClient;
import org.elasticsearch.rest.action.RestToXContentListener;
import org.elasticsearch.rest.action.search.RestSearchAction;

import java.io.IOException;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

import static org.elasticsearch.rest.RestRequest.Method.GET;
import static org.elasticsearch.rest.RestRequest.Method.POST;

/**
 * {@code GET|POST /{index}/_simhash/fold}: reads the fold request (the fold parameters from the URL, a search body) and
 * runs {@link FoldAction} as a task that is cancelled when the HTTP client disconnects.
 */
public final class RestFoldAction extends BaseRestHandler {

    private final Predicate<NodeFeature> clusterSupportsFeature;

    public RestFoldAction(Predicate<NodeFeature> clusterSupportsFeature) {
        this.clusterSupportsFeature = clusterSupportsFeature;
    }

    @Override
    public String getName() {
        return "simhash_fold_action";
    }

    @Override
    public List<Route> routes() {
        return List.of(
            new Route(GET, "/_simhash/fold"),
            new Route(POST, "/_simhash/fold"),
            new Route(GET, "/{index}/_simhash/fold"),
            new Route(POST, "/{index}/_simhash/fold"));
    }

    @Override
    protected Set<String> responseParams() {
        return Set.of(RestSearchAction.INCLUDE_NAMED_QUERIES_SCORE_PARAM);
    }

    @Override
    protected RestChannelConsumer prepareRequest(RestRequest request, NodeClient client) throws IOException {
        FoldRequest fold = FoldRequest.parse(request, clusterSupportsFeature);
        return channel -> new RestCancellableNodeClient(client, request.getHttpChannel())
            .execute(FoldAction.INSTANCE, fold, new RestToXContentListener<>(channel));
    }
}
