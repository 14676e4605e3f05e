package dev.simhash.duplicates;

import dev.simhash.request.RestParams;

import org.elasticsearch.action.ActionRequestValidationException;
import org.elasticsearch.action.support.IndicesOptions;
import org.elasticsearch.client.internal.node.NodeClient;
import org.elasticsearch.common.Strings;
import org.elasticsearch.core.TimeValue;
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
 * transport action as a task that is cancelled when the HTTP client disconnects, or, with
 * {@code wait_for_completion=false}, in the background with its result kept for {@code keep_alive} in the plugin's
 * report records ({@link ReportStore}), read and deleted through {@code _simhash/duplicates/<id>}.
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
        boolean wait = RestParams.flag(request, "wait_for_completion", true);
        String keepAliveParam = request.param("keep_alive");
        if (wait) {
            if (keepAliveParam != null) {
                throw new IllegalArgumentException("[keep_alive] applies only with [wait_for_completion=false]");
            }
            return channel -> new RestCancellableNodeClient(client, request.getHttpChannel())
                .execute(DuplicatesAction.INSTANCE, report, new RestToXContentListener<>(channel));
        }
        // like async search: run detached from the HTTP connection, keep the result in the plugin's own record (readable
        // by whoever may read the report's indices, until the keep-alive ends) and answer its id at once
        TimeValue keepAlive = AsyncDuplicatesRequest.checkKeepAlive(request.paramAsTime("keep_alive",
            AsyncDuplicatesRequest.DEFAULT_KEEP_ALIVE));
        AsyncDuplicatesRequest async = new AsyncDuplicatesRequest(report, keepAlive);
        ActionRequestValidationException invalid = async.validate();
        if (invalid != null) {
            throw invalid;
        }
        return channel -> client.execute(AsyncDuplicatesAction.INSTANCE, async, new RestToXContentListener<>(channel));
    }
}
