package dev.simhash.calibrate;

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

import static org.elasticsearch.rest.RestRequest.Method.GET;
import static org.elasticsearch.rest.RestRequest.Method.POST;

/**
 * {@code GET|POST /{index}/_simhash/calibrate}: how far apart random documents and edited copies of them are, for
 * choosing {@code max_distance}. Parameters in the URL or the JSON body (URL parameters win); runs as a task that is
 * cancelled when the HTTP client disconnects.
 */
public final class RestCalibrateAction extends BaseRestHandler {

    @Override
    public String getName() {
        return "simhash_calibrate_action";
    }

    @Override
    public List<Route> routes() {
        return List.of(new Route(GET, "/{index}/_simhash/calibrate"), new Route(POST, "/{index}/_simhash/calibrate"));
    }

    @Override
    protected RestChannelConsumer prepareRequest(RestRequest request, NodeClient client) throws IOException {
        CalibrateRequest calibrate = new CalibrateRequest(Strings.splitStringByCommaToArray(request.param("index")));
        if (request.hasContentOrSourceParam()) {
            try (XContentParser parser = request.contentOrSourceParamParser()) {
                calibrate.parse(parser);
            }
        }
        for (String name : CalibrateRequest.PARAMETERS) {
            String value = request.param(name);
            if (value != null) {
                calibrate.param(name, value);
            }
        }
        if (calibrate.field() == null) {
            throw new IllegalArgumentException("[field] is required: the [simhash] field to calibrate, e.g. "
                + "GET <index>/_simhash/calibrate?field=body.simhash");
        }
        calibrate.indicesOptions(IndicesOptions.fromRequest(request, calibrate.indicesOptions()));
        return channel -> new RestCancellableNodeClient(client, request.getHttpChannel())
            .execute(CalibrateAction.INSTANCE, calibrate, new RestToXContentListener<>(channel));
    }
}
