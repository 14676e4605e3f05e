package dev.simhash.weights;

import dev.simhash.request.RestParams;

import org.elasticsearch.action.ActionRequestValidationException;
import org.elasticsearch.action.support.SubscribableListener;
import org.elasticsearch.client.internal.node.NodeClient;
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

import static org.elasticsearch.rest.RestRequest.Method.PUT;

/** {@code PUT _simhash/weights/<name>}: upload or compute a table; {@code wait_for_completion=false} answers the task id. */
public final class RestPutWeightsAction extends BaseRestHandler {

    @Override
    public String getName() {
        return "simhash_weights_put_action";
    }

    @Override
    public List<Route> routes() {
        return List.of(new Route(PUT, "/_simhash/weights/{name}"));
    }

    @Override
    protected RestChannelConsumer prepareRequest(RestRequest request, NodeClient client) throws IOException {
        String name = WeightsRegistry.checkName(request.param("name"));
        if (!request.hasContentOrSourceParam()) {
            throw new IllegalArgumentException("a body is required: {\"version\": ..., \"features\": {...}} or {\"version\": ..., "
                + "\"index\": ..., \"field\": ...}");
        }
        PutWeightsRequest put;
        try (XContentParser parser = request.contentOrSourceParamParser()) {
            put = PutWeightsRequest.parse(name, parser);
        }
        if (RestParams.flag(request, "wait_for_completion", true)) {
            return channel -> new RestCancellableNodeClient(client, request.getHttpChannel())
                .execute(PutWeightsAction.INSTANCE, put, new RestToXContentListener<>(channel));
        }
        put.shouldStoreResult(true);
        ActionRequestValidationException invalid = put.validate();
        if (invalid != null) {
            throw invalid;
        }
        return channel -> {
            SubscribableListener<PutWeightsResponse> done = new SubscribableListener<>();
            Task task = client.executeLocally(PutWeightsAction.INSTANCE, put, done);
            done.addListener(new LoggingTaskListener<>(task));
            try (XContentBuilder builder = channel.newBuilder()) {
                builder.startObject().field("task", new TaskId(client.getLocalNodeId(), task.getId()).toString()).endObject();
                channel.sendResponse(new RestResponse(RestStatus.OK, builder));
            }
        };
    }
}
