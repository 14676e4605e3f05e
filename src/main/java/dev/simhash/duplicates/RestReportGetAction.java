package dev.simhash.duplicates;

import org.elasticsearch.client.internal.node.NodeClient;
import org.elasticsearch.rest.BaseRestHandler;
import org.elasticsearch.rest.RestRequest;
import org.elasticsearch.rest.action.RestToXContentListener;

import java.util.List;

import static org.elasticsearch.rest.RestRequest.Method.GET;

/** {@code GET _simhash/duplicates/<id>}: a report started with {@code wait_for_completion=false}, running or finished. */
public final class RestReportGetAction extends BaseRestHandler {

    @Override
    public String getName() {
        return "simhash_duplicates_get_action";
    }

    @Override
    public List<Route> routes() {
        return List.of(new Route(GET, "/_simhash/duplicates/{id}"));
    }

    @Override
    protected RestChannelConsumer prepareRequest(RestRequest request, NodeClient client) {
        ReportGetRequest get = new ReportGetRequest(request.param("id"));
        return channel -> client.execute(ReportGetAction.INSTANCE, get, new RestToXContentListener<>(channel));
    }
}
