package dev.simhash.weights;

import dev.simhash.request.RestParams;

import org.elasticsearch.client.internal.node.NodeClient;
import org.elasticsearch.rest.BaseRestHandler;
import org.elasticsearch.rest.RestRequest;
import org.elasticsearch.rest.action.RestToXContentListener;

import java.util.List;

import static org.elasticsearch.rest.RestRequest.Method.GET;

/** {@code GET _simhash/weights[/<name>]}, {@code features=true} for all features, {@code size=N} for the first N. */
public final class RestGetWeightsAction extends BaseRestHandler {
    /** Features shown by {@code size} at most; more need {@code features=true}. */
    static final int MAX_SIZE = 10_000;

    @Override
    public String getName() {
        return "simhash_weights_get_action";
    }

    @Override
    public List<Route> routes() {
        return List.of(new Route(GET, "/_simhash/weights"), new Route(GET, "/_simhash/weights/{name}"));
    }

    @Override
    protected RestChannelConsumer prepareRequest(RestRequest request, NodeClient client) {
        String name = request.param("name");
        if (name != null) {
            WeightsRegistry.checkName(name);
        }
        boolean all = RestParams.flag(request, "features", false);
        int size = RestParams.integer(request, "size", 0);
        if (size < 0 || size > MAX_SIZE) {
            throw new IllegalArgumentException("[size] must be between 0 and " + MAX_SIZE + " (use features=true for all), got [" + size
                + "]");
        }
        GetWeightsRequest get = new GetWeightsRequest(name, all ? Integer.MAX_VALUE : size);
        return channel -> client.execute(GetWeightsAction.INSTANCE, get, new RestToXContentListener<>(channel));
    }
}
