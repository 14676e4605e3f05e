package dev.simhash.weights;

import dev.simhash.wire.WireEnvelope;

import org.elasticsearch.ExceptionsHelper;
import org.elasticsearch.action.ActionListener;
import org.elasticsearch.action.ActionRequest;
import org.elasticsearch.action.ActionRequestValidationException;
import org.elasticsearch.action.ActionResponse;
import org.elasticsearch.action.ActionType;
import org.elasticsearch.action.support.ActionFilters;
import org.elasticsearch.action.support.GroupedActionListener;
import org.elasticsearch.action.support.HandledTransportAction;
import org.elasticsearch.client.internal.node.NodeClient;
import org.elasticsearch.common.io.stream.StreamInput;
import org.elasticsearch.common.io.stream.StreamOutput;
import org.elasticsearch.common.util.concurrent.EsExecutors;
import org.elasticsearch.injection.guice.Inject;
import org.elasticsearch.rest.RestStatus;
import org.elasticsearch.tasks.Task;
import org.elasticsearch.transport.TransportService;
import org.elasticsearch.xcontent.ToXContentObject;
import org.elasticsearch.xcontent.XContentBuilder;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code GET _simhash/weights[/<name>]}: the tables' metadata from the node's registry, optionally with their features
 * ({@code features=true}: all; {@code size=N}: the first N in sorted order). Under {@code cluster:monitor}; the features
 * only for callers who may read the table's source index or have {@code manage} ({@link WeightsFeaturesAction}).
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
            StreamInput body = WireEnvelope.read(in).in();
            this.name = body.readOptionalString();
            this.featureLimit = body.readVInt();
        }

        @Override
        public void writeTo(StreamOutput out) throws IOException {
            super.writeTo(out);
            WireEnvelope.write(out, body -> {
                body.writeOptionalString(name);
                body.writeVInt(featureLimit);
            });
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
            StreamInput body = WireEnvelope.read(in).in();
            this.name = body.readOptionalString();
            int n = body.readVInt();
            List<WeightsTable> t = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                t.add(WeightsMetadata.readTable(body));
            }
            this.tables = t;
            this.featureLimit = body.readVInt();
        }

        @Override
        public void writeTo(StreamOutput out) throws IOException {
            WireEnvelope.write(out, body -> {
                body.writeOptionalString(name);
                body.writeVInt(tables.size());
                for (WeightsTable t : tables) {
                    WeightsMetadata.writeTable(body, t);
                }
                body.writeVInt(featureLimit);
            });
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

    /**
     * Answers from the local registry (the node's copy of the cluster state). Features reveal the vocabulary of the index a
     * table was computed from, so they are read through {@link WeightsFeaturesAction} as the caller: with {@code read} on the
     * table's source index, or with {@code manage}.
     */
    public static final class Transport extends HandledTransportAction<Request, Response> {
        private final WeightsRegistry registry;
        private final NodeClient client;

        @Inject
        public Transport(TransportService transportService, ActionFilters actionFilters, WeightsRegistry registry, NodeClient client) {
            super(NAME, transportService, actionFilters, Request::new, EsExecutors.DIRECT_EXECUTOR_SERVICE);
            this.registry = registry;
            this.client = client;
        }

        @Override
        protected void doExecute(Task task, Request request, ActionListener<Response> listener) {
            List<WeightsTable> tables;
            if (request.name != null) {
                WeightsTable t = registry.get(request.name);
                if (t == null) {
                    listener.onFailure(DeleteWeightsAction.notFound(request.name));
                    return;
                }
                tables = List.of(t);
            } else {
                tables = List.copyOf(registry.tables().values());
            }
            if (request.featureLimit == 0 || tables.isEmpty()) {
                listener.onResponse(new Response(request.name, tables, request.featureLimit));
                return;
            }
            WeightsTable[] read = new WeightsTable[tables.size()];
            GroupedActionListener<Void> all = new GroupedActionListener<>(tables.size(),
                listener.map(ignored -> new Response(request.name, List.of(read), request.featureLimit)));
            for (int i = 0; i < tables.size(); i++) {
                int slot = i;
                features(task, tables.get(i), all.map(r -> {
                    read[slot] = r.table();
                    return null;
                }));
            }
        }

        /** The table's features as the caller: by read on its source index, else (or for uploads) by manage. */
        private void features(Task task, WeightsTable table, ActionListener<WeightsFeaturesAction.Response> listener) {
            String[] source = WeightsFeaturesAction.sourceIndices(table);
            WeightsFeaturesAction.Request admin = new WeightsFeaturesAction.Request(table.name(), null);
            admin.setParentTask(client.getLocalNodeId(), task.getId());
            if (source == null) {
                client.execute(WeightsFeaturesAction.ADMIN, admin, listener);
                return;
            }
            WeightsFeaturesAction.Request read = new WeightsFeaturesAction.Request(table.name(), source);
            read.setParentTask(client.getLocalNodeId(), task.getId());
            client.execute(WeightsFeaturesAction.READ, read, listener.delegateResponse((l, denied) -> {
                if (ExceptionsHelper.status(denied) != RestStatus.FORBIDDEN) {
                    l.onFailure(denied);
                    return;
                }
                // no read on the source index: manage still may; if not, the index privilege is the one to name
                client.execute(WeightsFeaturesAction.ADMIN, admin, l.delegateResponse((l2, e) -> l2.onFailure(denied)));
            }));
        }
    }
}
