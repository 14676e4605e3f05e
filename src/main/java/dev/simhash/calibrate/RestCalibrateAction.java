package dev.simhash.calibrate;

import dev.simhash.request.RestParams;

import org.elasticsearch.action.ActionRequestValidationException;
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
        // URL parameters win over the body's
        if (request.hasParam(CalibrateRequest.FIELD)) {
            calibrate.field(request.param(CalibrateRequest.FIELD));
        }
        if (request.hasParam(CalibrateRequest.SOURCE_FIELD)) {
            calibrate.sourceField(request.param(CalibrateRequest.SOURCE_FIELD));
        }
        calibrate.sampleSize(RestParams.integer(request, CalibrateRequest.SAMPLE_SIZE, calibrate.sampleSize()));
        calibrate.seed(RestParams.integer(request, CalibrateRequest.SEED, calibrate.seed()));
        calibrate.maxFalseMatchRate(RestParams.number(request, CalibrateRequest.MAX_FALSE_MATCH_RATE, calibrate.maxFalseMatchRate()));
        // answered before the task starts, as a 400 naming the parameter
        ActionRequestValidationException invalid = calibrate.validate();
        if (invalid != null) {
            throw invalid;
        }
        calibrate.indicesOptions(IndicesOptions.fromRequest(request, calibrate.indicesOptions()));
        return channel -> new RestCancellableNodeClient(client, request.getHttpChannel())
            .execute(CalibrateAction.INSTANCE, calibrate, new RestToXContentListener<>(channel));
    }
}
