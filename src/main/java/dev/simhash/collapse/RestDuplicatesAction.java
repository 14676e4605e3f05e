package dev.simhash.collapse;

import org.elasticsearch.action.support.IndicesOptions;
import org.elasticsearch.client.internal.node.NodeClient;
import org.elasticsearch.common.Strings;
import org.elasticsearch.rest.BaseRestHandler;
import org.elasticsearch.rest.RestRequest;
import org.elasticsearch.rest.action.RestCancellableNodeClient;
import org.elasticsearch.rest.action.RestToXContentListener;
import org.elasticsearch.xcontent.XContentParser;

import java.io.IOException;
import java.util.List;

import static org.elasticsearch.rest.RestRequest.Method.POST;

/**
 * {@code POST /{index}/_simhash/duplicates}: the whole-index near-duplicate report. Runs the
 * transport action as a task that is cancelled when the HTTP client disconnects.
 */
public final class RestDuplicatesAction extends BaseRestHandler {

    @Override
    public String getName() {
        return "simhash_duplicates_action";
    }

    @Override
    public List<Route> routes() {
        return List.of(new Route(POST, "/{index}/_simhash/duplicates"));
    }

    @Override
    protected RestChannelConsumer prepareRequest(RestRequest request, NodeClient client) throws IOException {
        String[] indices = Strings.splitStringByCommaToArray(request.param("index"));
        DuplicatesRequest report;
        if (request.hasContentOrSourceParam()) {
            try (XContentParser parser = request.contentOrSourceParamParser()) {
                report = DuplicatesRequest.parse(parser, indices);
            }
        } else {
            report = DuplicatesRequest.parse(null, indices);
        }
        report.indicesOptions(IndicesOptions.fromRequest(request, report.indicesOptions()));
        return channel -> new RestCancellableNodeClient(client, request.getHttpChannel())
            .execute(DuplicatesAction.INSTANCE, report, new RestToXContentListener<>(channel));
    }
}
