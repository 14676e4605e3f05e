package dev.simhash.collapse;

import dev.simhash.core.SimHash;

import org.elasticsearch.action.ActionRequestValidationException;
import org.elasticsearch.action.support.IndicesOptions;
import org.elasticsearch.action.support.SubscribableListener;
import org.elasticsearch.client.internal.node.NodeClient;
import org.elasticsearch.common.Strings;
import org.elasticsearch.rest.BaseRestHandler;
import org.elasticsearch.rest.RestRequest;
import org.elasticsearch.rest.RestResponse;
import org.elasticsearch.rest.RestStatus;
import org.elasticsearch.rest.action.RestCancellableNodeClient;
import org.elasticsearch.rest.action.RestToXContentListener;
import org.elasticsearch.tasks.LoggingTaskListener;
import org.elasticsearch.tasks.Task;
import org.elasticsearch.tasks.TaskId;
import org.elasticsearch.xcontent.XContentBuilder;
import org.elasticsearch.xcontent.XContentParser;

import java.io.IOException;
import java.util.List;

import static org.elasticsearch.rest.RestRequest.Method.POST;

/**
 * {@code POST /{index}/_simhash/duplicates}: the whole-index near-duplicate report. Runs the
 * transport action as a task that is cancelled when the HTTP client disconnects, or, with
 * {@code wait_for_completion=false}, in the background with its result stored as a task result.
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
        if (waitForCompletion(request.param("wait_for_completion"))) {
            return channel -> new RestCancellableNodeClient(client, request.getHttpChannel())
                .execute(DuplicatesAction.INSTANCE, report, new RestToXContentListener<>(channel));
        }
        // like _reindex: run detached from the HTTP connection, store the response (or the error) as the task's result in
        // the .tasks index, and answer the task id at once; GET _tasks/<id> shows the status, then the stored result
        report.shouldStoreResult(true);
        ActionRequestValidationException invalid = report.validate();
        if (invalid != null) {
            throw invalid;
        }
        return channel -> {
            SubscribableListener<DuplicatesResponse> done = new SubscribableListener<>();
            Task task = client.executeLocally(DuplicatesAction.INSTANCE, report, done);
            // the result goes to the .tasks index; the log records how the task ended
            done.addListener(new LoggingTaskListener<>(task));
            try (XContentBuilder builder = channel.newBuilder()) {
                builder.startObject().field("task", new TaskId(client.getLocalNodeId(), task.getId()).toString()).endObject();
                channel.sendResponse(new RestResponse(RestStatus.OK, builder));
            }
        };
    }

    /** {@code wait_for_completion}: absent or empty is true; anything but true or false is a 400 naming the parameter. */
    public static boolean waitForCompletion(String value) {
        if (value == null || value.isEmpty() || value.equals("true")) {
            return true;
        }
        if (value.equals("false")) {
            return false;
        }
        throw new IllegalArgumentException("[wait_for_completion] must be [true] or [false], got [" + SimHash.abbreviate(value) + "]");
    }
}
