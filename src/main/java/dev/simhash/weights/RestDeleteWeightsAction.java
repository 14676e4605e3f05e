package dev.simhash.weights;

import org.elasticsearch.client.internal.node.NodeClient;
import org.elasticsearch.rest.BaseRestHandler;
import org.elasticsearch.rest.RestRequest;
import org.elasticsearch.rest.action.RestToXContentListener;

import java.util.List;

import static org.elasticsearch.rest.RestRequest.Method.DELETE;

/** {@code DELETE _simhash/weights/<name>}: thin, the master decides (see {@link TransportDeleteWeightsAction}). */
public final class RestDeleteWeightsAction extends BaseRestHandler {

    @Override
    public String getName() {
        return "simhash_weights_delete_action";
    }

    @Override
    public List<Route> routes() {
        return List.of(new Route(DELETE, "/_simhash/weights/{name}"));
    }

    @Override
    protected RestChannelConsumer prepareRequest(RestRequest request, NodeClient client) {
        String name = WeightsRegistry.checkName(request.param("name"));
        return channel -> client.execute(DeleteWeightsAction.INSTANCE, new DeleteWeightsRequest(name),
            new RestToXContentListener<>(channel));
    }
}
