package dev.simhash.duplicates;

import org.elasticsearch.client.internal.node.NodeClient;
import org.elasticsearch.rest.BaseRestHandler;
import org.elasticsearch.rest.RestRequest;
import org.elasticsearch.rest.action.RestToXContentListener;

import java.util.List;

import static org.elasticsearch.rest.RestRequest.Method.DELETE;

/** {@code DELETE _simhash/duplicates/<id>}: cancels a report started with {@code wait_for_completion=false} and deletes it. */
public final class RestReportDeleteAction extends BaseRestHandler {

    @Override
    public String getName() {
        return "simhash_duplicates_delete_action";
    }

    @Override
    public List<Route> routes() {
        return List.of(new Route(DELETE, "/_simhash/duplicates/{id}"));
    }

    @Override
    protected RestChannelConsumer prepareRequest(RestRequest request, NodeClient client) {
        ReportDeleteRequest delete = new ReportDeleteRequest(request.param("id"));
        return channel -> client.execute(ReportDeleteAction.INSTANCE, delete, new RestToXContentListener<>(channel));
    }
}
