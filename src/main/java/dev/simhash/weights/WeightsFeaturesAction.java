package dev.simhash.weights;

import dev.simhash.wire.WireEnvelope;

import org.elasticsearch.action.ActionListener;
import org.elasticsearch.action.ActionRequest;
import org.elasticsearch.action.ActionRequestValidationException;
import org.elasticsearch.action.ActionResponse;
import org.elasticsearch.action.ActionType;
import org.elasticsearch.action.IndicesRequest;
import org.elasticsearch.action.support.ActionFilters;
import org.elasticsearch.action.support.HandledTransportAction;
import org.elasticsearch.action.support.IndicesOptions;
import org.elasticsearch.common.io.stream.StreamInput;
import org.elasticsearch.common.io.stream.StreamOutput;
import org.elasticsearch.common.regex.Regex;
import org.elasticsearch.common.util.concurrent.EsExecutors;
import org.elasticsearch.injection.guice.Inject;
import org.elasticsearch.tasks.Task;
import org.elasticsearch.transport.TransportService;

import java.io.IOException;
import java.util.Arrays;

/**
 * The features of one table, which reveal the vocabulary of the index it was computed from: under an action on that index
 * ({@link #READ}, authorized by the {@code read} privilege on the table's source index) or under {@code cluster:admin}
 * ({@link #ADMIN}, the {@code manage} privilege; the only way for uploaded tables). {@code GET _simhash/weights} runs them as
 * the caller; the metadata without features stays under {@code cluster:monitor}.
 */
public final class WeightsFeaturesAction {

    public static final String READ_NAME = "indices:data/read/simhash/weights/features";
    public static final String ADMIN_NAME = "cluster:admin/simhash/weights/features";
    public static final ActionType<Response> READ = new ActionType<>(READ_NAME);
    public static final ActionType<Response> ADMIN = new ActionType<>(ADMIN_NAME);

    private WeightsFeaturesAction() {}

    /**
     * The indices a table was computed from, as recorded in its source, when they are plain names security can authorize as
     * they are; null for uploaded tables and for sources given as patterns, aliases of patterns or date math (those need
     * {@code manage}: a pattern would be narrowed to what the caller may read, not checked as a whole).
     */
    public static String[] sourceIndices(WeightsTable table) {
        if (table.source().get("index") instanceof String index && !index.isEmpty()) {
            String[] names = index.split(",");
            for (String n : names) {
                if (n.isEmpty() || Regex.isSimpleMatchPattern(n) || n.startsWith("-") || n.startsWith("<") || n.startsWith("_")
                    || n.contains(":")) {
                    return null;
                }
            }
            return names;
        }
        return null;
    }

    /** The table's name; for {@link #READ} also the indices it was computed from, which security authorizes. */
    public static final class Request extends ActionRequest implements IndicesRequest {
        private final String name;
        private final String[] indices;

        public Request(String name, String[] indices) {
            this.name = name;
            this.indices = indices == null ? new String[0] : indices.clone();
        }

        public Request(StreamInput in) throws IOException {
            super(in);
            StreamInput body = WireEnvelope.read(in).in();
            this.name = body.readString();
            this.indices = body.readStringArray();
        }

        @Override
        public void writeTo(StreamOutput out) throws IOException {
            super.writeTo(out);
            WireEnvelope.write(out, body -> {
                body.writeString(name);
                body.writeStringArray(indices);
            });
        }

        public String name() {
            return name;
        }

        @Override
        public String[] indices() {
            return indices;
        }

        @Override
        public IndicesOptions indicesOptions() {
            // names as recorded, never expanded: the caller must be allowed to read each of them
            return IndicesOptions.strictNoExpandForbidClosed();
        }

        @Override
        public ActionRequestValidationException validate() {
            return null;
        }
    }

    /** The whole table. */
    public static final class Response extends ActionResponse {
        private final WeightsTable table;

        Response(WeightsTable table) {
            this.table = table;
        }

        public Response(StreamInput in) throws IOException {
            StreamInput body = WireEnvelope.read(in).in();
            this.table = WeightsMetadata.readTable(body);
        }

        @Override
        public void writeTo(StreamOutput out) throws IOException {
            WireEnvelope.write(out, body -> WeightsMetadata.writeTable(body, table));
        }

        public WeightsTable table() {
            return table;
        }
    }

    /** Looks the named table up and answers it whole, unless {@link #refusal} says this action may not show it. */
    private abstract static class TableTransport extends HandledTransportAction<Request, Response> {
        private final WeightsRegistry registry;

        TableTransport(String name, TransportService transportService, ActionFilters actionFilters, WeightsRegistry registry) {
            super(name, transportService, actionFilters, Request::new, EsExecutors.DIRECT_EXECUTOR_SERVICE);
            this.registry = registry;
        }

        /** Why this action does not show table {@code t} for {@code request}, or null when it does. */
        abstract Exception refusal(WeightsTable t, Request request);

        @Override
        protected final void doExecute(Task task, Request request, ActionListener<Response> listener) {
            WeightsTable t = registry.get(request.name());
            if (t == null) {
                listener.onFailure(DeleteWeightsAction.notFound(request.name()));
                return;
            }
            Exception refused = refusal(t, request);
            if (refused != null) {
                listener.onFailure(refused);
                return;
            }
            listener.onResponse(new Response(t));
        }
    }

    /**
     * {@link #READ}: answers only for the indices the table records, so that the privilege security checked is the one on
     * the table's own source.
     */
    public static final class ReadTransport extends TableTransport {

        @Inject
        public ReadTransport(TransportService transportService, ActionFilters actionFilters, WeightsRegistry registry) {
            super(READ_NAME, transportService, actionFilters, registry);
        }

        @Override
        Exception refusal(WeightsTable t, Request request) {
            String[] source = sourceIndices(t);
            if (source == null || !Arrays.equals(source, request.indices())) {
                return new IllegalArgumentException("[indices] table [" + request.name() + "] was not computed from "
                    + Arrays.toString(request.indices()) + "; its features are shown to readers of its source index only");
            }
            return null;
        }
    }

    /** {@link #ADMIN}: any table, for {@code manage}. */
    public static final class AdminTransport extends TableTransport {

        @Inject
        public AdminTransport(TransportService transportService, ActionFilters actionFilters, WeightsRegistry registry) {
            super(ADMIN_NAME, transportService, actionFilters, registry);
        }

        @Override
        Exception refusal(WeightsTable t, Request request) {
            return null;
        }
    }
}
