package dev.simhash.duplicates;

import dev.simhash.compat.CompatIndices;

import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.elasticsearch.ExceptionsHelper;
import org.elasticsearch.ResourceAlreadyExistsException;
import org.elasticsearch.action.ActionListener;
import org.elasticsearch.action.DocWriteRequest;
import org.elasticsearch.action.admin.cluster.node.tasks.cancel.CancelTasksRequest;
import org.elasticsearch.action.admin.indices.create.CreateIndexRequest;
import org.elasticsearch.action.bulk.BulkRequest;
import org.elasticsearch.action.delete.DeleteRequest;
import org.elasticsearch.action.get.GetRequest;
import org.elasticsearch.action.index.IndexRequest;
import org.elasticsearch.action.search.SearchRequest;
import org.elasticsearch.action.support.SubscribableListener;
import org.elasticsearch.action.update.UpdateRequest;
import org.elasticsearch.client.internal.Client;
import org.elasticsearch.client.internal.OriginSettingClient;
import org.elasticsearch.cluster.service.ClusterService;
import org.elasticsearch.common.settings.Setting;
import org.elasticsearch.common.settings.Settings;
import org.elasticsearch.core.TimeValue;
import org.elasticsearch.index.IndexNotFoundException;
import org.elasticsearch.index.query.QueryBuilders;
import org.elasticsearch.search.SearchHit;
import org.elasticsearch.search.builder.SearchSourceBuilder;
import org.elasticsearch.tasks.TaskId;
import org.elasticsearch.threadpool.ThreadPool;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Keeps asynchronous reports in the hidden index {@value #INDEX}, written and read as Elasticsearch's internal user (the
 * origin Elasticsearch uses for its own task results), so that no caller reads records directly: callers reach them only
 * through the report endpoints, which check the caller's read access to the report's indices. Removes expired records
 * periodically on the elected master.
 */
public final class ReportStore {

    private static final Logger LOGGER = LogManager.getLogger(ReportStore.class);

    /** The hidden index holding the records. */
    public static final String INDEX = ".simhash-reports";
    /**
     * The origin Elasticsearch writes its {@code .tasks} index with: security runs requests with it as its internal user,
     * and rejects origins it does not know, so the plugin uses this known one.
     */
    static final String ORIGIN = "tasks";
    /** How often expired records are looked for. */
    public static final Setting<TimeValue> CLEANUP_INTERVAL = Setting.timeSetting("simhash.reports.cleanup_interval",
        TimeValue.timeValueMinutes(1), TimeValue.timeValueSeconds(1), Setting.Property.NodeScope);
    /** Expired records removed per cleanup round at most (the next round takes the rest). */
    static final int CLEANUP_BATCH = 1_000;

    private final Client client;
    private final ClusterService clusterService;
    private final ThreadPool threadPool;
    private final CompatIndices indices;

    public ReportStore(Client client, ClusterService clusterService, ThreadPool threadPool, CompatIndices indices) {
        this.client = new OriginSettingClient(client, ORIGIN);
        this.clusterService = clusterService;
        this.threadPool = threadPool;
        this.indices = indices;
    }

    /** Starts the periodic removal of expired records. */
    public void start(Settings settings) {
        threadPool.scheduleWithFixedDelay(this::cleanup, CLEANUP_INTERVAL.get(settings), threadPool.generic());
    }

    private static Map<String, Object> mapping() {
        // only what cleanup searches is indexed; the report, its progress and its error are kept as they are
        Map<String, Object> properties = new LinkedHashMap<>();
        for (String keyword : List.of("task", "state", "indices")) {
            properties.put(keyword, Map.of("type", "keyword"));
        }
        for (String kept : List.of("field", "write_group_id")) {
            properties.put(kept, Map.of("type", "keyword", "index", false));
        }
        properties.put("start_time_in_millis", Map.of("type", "long"));
        properties.put("expiration_time_in_millis", Map.of("type", "long"));
        properties.put("cancelled", Map.of("type", "boolean"));
        for (String opaque : List.of("status", "response", "error")) {
            properties.put(opaque, Map.of("type", "object", "enabled", false));
        }
        return Map.of("dynamic", false, "properties", properties);
    }

    private void ensureIndex(ActionListener<Void> listener) {
        if (indices.index(INDEX) != null) {
            listener.onResponse(null);
            return;
        }
        CreateIndexRequest create = new CreateIndexRequest(INDEX).settings(Settings.builder().put("index.hidden", true)
            .put("index.number_of_shards", 1).put("index.auto_expand_replicas", "0-1")).mapping(mapping());
        client.admin().indices().create(create, ActionListener.wrap(r -> listener.onResponse(null), e -> {
            if (ExceptionsHelper.unwrapCause(e) instanceof ResourceAlreadyExistsException) {
                listener.onResponse(null);
            } else {
                listener.onFailure(e);
            }
        }));
    }

    /** Stores a new record (creating the index the first time). */
    public void create(ReportRecord record, ActionListener<Void> listener) {
        ensureIndex(listener.delegateFailureAndWrap((l, v) -> client.index(new IndexRequest(INDEX).id(record.id())
            .opType(DocWriteRequest.OpType.CREATE).source(record.toSource()), l.map(r -> null))));
    }

    /**
     * Updates fields of an existing record; a record removed meanwhile (deleted, expired) stays removed: an update never
     * creates it again.
     */
    public void update(String id, Map<String, Object> fields, ActionListener<Void> listener) {
        client.update(new UpdateRequest(INDEX, id).doc(fields).retryOnConflict(3), listener.map(r -> null));
    }

    /** The record, or null when there is none. */
    public void get(String id, ActionListener<ReportRecord> listener) {
        client.get(new GetRequest(INDEX, id), ActionListener.wrap(
            r -> listener.onResponse(r.isExists() ? ReportRecord.fromSource(id, r.getSourceAsMap()) : null),
            e -> {
                if (ExceptionsHelper.unwrapCause(e) instanceof IndexNotFoundException) {
                    listener.onResponse(null);
                } else {
                    listener.onFailure(e);
                }
            }));
    }

    /** Removes the record. */
    public void delete(String id, ActionListener<Void> listener) {
        client.delete(new DeleteRequest(INDEX, id), listener.map(r -> null));
    }

    /** Cancels the task running a report (as the internal user: the caller was checked already) and waits for its end. */
    public void cancel(String task, ActionListener<Void> listener) {
        CancelTasksRequest cancel = new CancelTasksRequest();
        cancel.setTargetTaskId(new TaskId(task));
        cancel.setReason("the report was deleted");
        cancel.setWaitForCompletion(true);
        client.admin().cluster().cancelTasks(cancel, listener.map(r -> null));
    }

    /** The client reports' internal requests use (the internal user). */
    Client internalClient() {
        return client;
    }

    /** One cleanup round: removes up to {@link #CLEANUP_BATCH} expired records, cancelling the reports still running. */
    void cleanup() {
        try {
            if (clusterService.state().nodes().isLocalNodeElectedMaster() == false
                || indices.index(INDEX) == null) {
                return;
            }
        } catch (RuntimeException e) {
            return; // not started yet
        }
        removeExpired(System.currentTimeMillis(), ActionListener.wrap(n -> {
            if (n > 0) {
                LOGGER.debug("removed [{}] expired simhash reports", n);
            }
        }, e -> LOGGER.warn("removing expired simhash reports failed", e)));
    }

    /** Removes up to {@link #CLEANUP_BATCH} records expired at {@code nowMillis}; answers how many were removed. */
    void removeExpired(long nowMillis, ActionListener<Integer> listener) {
        SearchRequest search = new SearchRequest(INDEX).source(new SearchSourceBuilder().size(CLEANUP_BATCH)
            .query(QueryBuilders.rangeQuery("expiration_time_in_millis").lte(nowMillis)).fetchSource(new String[] { "state", "task" }, null));
        client.search(search, listener.delegateFailureAndWrap((l, r) -> {
            SearchHit[] hits = r.getHits().getHits();
            if (hits.length == 0) {
                l.onResponse(0);
                return;
            }
            BulkRequest bulk = new BulkRequest();
            List<String> running = new ArrayList<>();
            for (SearchHit hit : hits) {
                bulk.add(new DeleteRequest(INDEX, hit.getId()));
                Map<String, Object> source = hit.getSourceAsMap();
                if (ReportRecord.State.RUNNING.label().equals(source.get("state"))) {
                    running.add(String.valueOf(source.getOrDefault("task", hit.getId())));
                }
            }
            SubscribableListener<Void> cancelled = SubscribableListener.newSucceeded(null);
            for (String task : running) {
                // an expired report is not worth finishing; a task that is gone (interrupted report) is nothing to cancel
                cancelled = cancelled.andThen(next -> cancelQuietly(task, next));
            }
            cancelled.addListener(l.delegateFailureAndWrap((l2, v) -> client.bulk(bulk, l2.map(b -> hits.length))));
        }));
    }

    private void cancelQuietly(String task, ActionListener<Void> next) {
        CancelTasksRequest cancel = new CancelTasksRequest();
        cancel.setTargetTaskId(new TaskId(task));
        cancel.setReason("the report expired");
        client.admin().cluster().cancelTasks(cancel, ActionListener.running(() -> next.onResponse(null)));
    }
}
