package dev.simhash.weights;

import dev.simhash.neardup.Params;

import org.elasticsearch.action.ActionRequestValidationException;
import org.elasticsearch.action.support.SubscribableListener;
import org.elasticsearch.client.internal.node.NodeClient;
import org.elasticsearch.rest.BaseRestHandler;
import org.elasticsearch.rest.RestHandler;
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

import static org.elasticsearch.rest.RestRequest.Method.DELETE;
import static org.elasticsearch.rest.RestRequest.Method.GET;
import static org.elasticsearch.rest.RestRequest.Method.PUT;

/** The REST handlers of {@code _simhash/weights}: thin, each delegates to its transport action. */
public final class RestWeightsActions {

    private RestWeightsActions() {}

    /** Every handler. */
    public static List<RestHandler> all() {
        return List.of(new Put(), new Get(), new Delete());
    }

    /** {@code PUT _simhash/weights/<name>}: upload or compute; {@code wait_for_completion=false} answers the task id. */
    static final class Put extends BaseRestHandler {
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
            String name = request.param("name");
            PutWeightsAction.checkName(name);
            if (!request.hasContentOrSourceParam()) {
                throw new IllegalArgumentException("a body is required: {\"version\": ..., \"features\": {...}} or {\"version\": ..., "
                    + "\"index\": ..., \"field\": ...}");
            }
            PutWeightsAction.Request put;
            try (XContentParser parser = request.contentOrSourceParamParser()) {
                put = PutWeightsAction.Request.parse(name, parser);
            }
            if (Params.booleanParam(request, "wait_for_completion", true)) {
                return channel -> new RestCancellableNodeClient(client, request.getHttpChannel())
                    .execute(PutWeightsAction.INSTANCE, put, new RestToXContentListener<>(channel));
            }
            put.shouldStoreResult(true);
            ActionRequestValidationException invalid = put.validate();
            if (invalid != null) {
                throw invalid;
            }
            return channel -> {
                SubscribableListener<PutWeightsAction.Response> done = new SubscribableListener<>();
                Task task = client.executeLocally(PutWeightsAction.INSTANCE, put, done);
                done.addListener(new LoggingTaskListener<>(task));
                try (XContentBuilder builder = channel.newBuilder()) {
                    builder.startObject().field("task", new TaskId(client.getLocalNodeId(), task.getId()).toString()).endObject();
                    channel.sendResponse(new RestResponse(RestStatus.OK, builder));
                }
            };
        }
    }

    /** {@code GET _simhash/weights[/<name>]}, {@code features=true} for all features, {@code size=N} for the first N. */
    static final class Get extends BaseRestHandler {
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
                PutWeightsAction.checkName(name);
            }
            boolean all = request.paramAsBoolean("features", false);
            int size = request.paramAsInt("size", 0);
            if (size < 0 || size > MAX_SIZE) {
                throw new IllegalArgumentException("[size] must be between 0 and " + MAX_SIZE + " (use features=true for all), got [" + size
                    + "]");
            }
            GetWeightsAction.Request get = new GetWeightsAction.Request(name, all ? Integer.MAX_VALUE : size);
            return channel -> client.execute(GetWeightsAction.INSTANCE, get, new RestToXContentListener<>(channel));
        }
    }

    /** {@code DELETE _simhash/weights/<name>}. */
    static final class Delete extends BaseRestHandler {
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
            String name = PutWeightsAction.checkName(request.param("name"));
            return channel -> client.execute(DeleteWeightsAction.INSTANCE, new DeleteWeightsAction.Request(name),
                new RestToXContentListener<>(channel));
        }
    }
}
