package dev.simhash.weights;

import org.elasticsearch.action.ActionListener;
import org.elasticsearch.action.ActionRequest;
import org.elasticsearch.action.ActionRequestValidationException;
import org.elasticsearch.action.ActionResponse;
import org.elasticsearch.action.ActionType;
import org.elasticsearch.action.support.ActionFilters;
import org.elasticsearch.action.support.HandledTransportAction;
import org.elasticsearch.common.io.stream.StreamInput;
import org.elasticsearch.common.io.stream.StreamOutput;
import org.elasticsearch.common.util.concurrent.EsExecutors;
import org.elasticsearch.injection.guice.Inject;
import org.elasticsearch.tasks.Task;
import org.elasticsearch.transport.TransportService;
import org.elasticsearch.xcontent.ToXContentObject;
import org.elasticsearch.xcontent.XContentBuilder;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code GET _simhash/weights[/<name>]}: the tables' metadata from the node's registry, optionally with their features
 * ({@code features=true}: all; {@code size=N}: the first N in sorted order). Under {@code cluster:monitor}.
 */
public final class GetWeightsAction {

    public static final String NAME = "cluster:monitor/simhash/weights/get";
    public static final ActionType<Response> INSTANCE = new ActionType<>(NAME);

    private GetWeightsAction() {}

    /** One table by name, or all (name null); how many features to include per table. */
    public static final class Request extends ActionRequest {
        private final String name;
        private final int featureLimit;

        public Request(String name, int featureLimit) {
            this.name = name;
            this.featureLimit = featureLimit;
        }

        public Request(StreamInput in) throws IOException {
            super(in);
            this.name = in.readOptionalString();
            this.featureLimit = in.readVInt();
        }

        @Override
        public void writeTo(StreamOutput out) throws IOException {
            super.writeTo(out);
            out.writeOptionalString(name);
            out.writeVInt(featureLimit);
        }

        @Override
        public ActionRequestValidationException validate() {
            return null;
        }
    }

    /** The tables found. */
    public static final class Response extends ActionResponse implements ToXContentObject {
        private final String name;
        private final List<WeightsTable> tables;
        private final int featureLimit;

        Response(String name, List<WeightsTable> tables, int featureLimit) {
            this.name = name;
            this.tables = tables;
            this.featureLimit = featureLimit;
        }

        public Response(StreamInput in) throws IOException {
            this.name = in.readOptionalString();
            int n = in.readVInt();
            List<WeightsTable> t = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                t.add(WeightsMetadata.readTable(in));
            }
            this.tables = t;
            this.featureLimit = in.readVInt();
        }

        @Override
        public void writeTo(StreamOutput out) throws IOException {
            out.writeOptionalString(name);
            out.writeVInt(tables.size());
            for (WeightsTable t : tables) {
                WeightsMetadata.writeTable(out, t);
            }
            out.writeVInt(featureLimit);
        }

        @Override
        public XContentBuilder toXContent(XContentBuilder b, Params params) throws IOException {
            if (name != null) {
                return table(b, tables.get(0));
            }
            b.startObject().startArray("tables");
            for (WeightsTable t : tables) {
                table(b, t);
            }
            return b.endArray().endObject();
        }

        private XContentBuilder table(XContentBuilder b, WeightsTable t) throws IOException {
            b.startObject().field("name", t.name());
            WeightsMetadata.tableToXContent(b, t, featureLimit);
            return b.endObject();
        }
    }

    /** Answers from the local registry (the node's copy of the cluster state). */
    public static final class Transport extends HandledTransportAction<Request, Response> {
        private final WeightsRegistry registry;

        @Inject
        public Transport(TransportService transportService, ActionFilters actionFilters, WeightsRegistry registry) {
            super(NAME, transportService, actionFilters, Request::new, EsExecutors.DIRECT_EXECUTOR_SERVICE);
            this.registry = registry;
        }

        @Override
        protected void doExecute(Task task, Request request, ActionListener<Response> listener) {
            if (request.name != null) {
                WeightsTable t = registry.get(request.name);
                if (t == null) {
                    listener.onFailure(DeleteWeightsAction.notFound(request.name));
                    return;
                }
                listener.onResponse(new Response(request.name, List.of(t), request.featureLimit));
                return;
            }
            listener.onResponse(new Response(null, List.copyOf(registry.tables().values()), request.featureLimit));
        }
    }
}
