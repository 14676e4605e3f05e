package dev.simhash.weights;

import dev.simhash.compat.CompatProjectCustom;
import dev.simhash.compat.CompatTestState;
import dev.simhash.core.FingerprintSpec;

import org.elasticsearch.ExceptionsHelper;
import org.elasticsearch.ResourceNotFoundException;
import org.elasticsearch.action.ActionListener;
import org.elasticsearch.cluster.ClusterState;
import org.elasticsearch.cluster.metadata.IndexMetadata;
import org.elasticsearch.cluster.service.ClusterStateTaskExecutorUtils;
import org.elasticsearch.index.IndexVersion;
import org.elasticsearch.rest.RestStatus;
import org.elasticsearch.test.ESTestCase;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The master's batch of table changes: each change sees the tables the changes before it in the same batch left (the first
 * of two puts of a name wins, the total-feature limit counts tables added or deleted earlier in the batch), a refused change
 * fails alone, and a batch of refusals leaves the state untouched.
 */
public class WeightsChangesTest extends ESTestCase {

    private final CompatProjectCustom.Access access = CompatTestState.access();
    private final WeightsChanges.Executor executor = new WeightsChanges.Executor(access);

    private static WeightsTable table(String name, double defaultWeight) {
        return new WeightsTable(name, FingerprintSpec.Version.V2, Map.of("the", 0.5), defaultWeight, Map.of("type", "uploaded"), 1);
    }

    private static WeightsTable table(String name, Map<String, Double> features) {
        return new WeightsTable(name, FingerprintSpec.Version.V2, features, 1.0, Map.of("type", "uploaded"), 1);
    }

    private WeightsChanges.Change put(WeightsTable t) {
        return new TransportStoreWeightsAction.Put(new StoreWeightsRequest(t), ActionListener.noop());
    }

    private WeightsChanges.Change delete(String name) {
        return new TransportDeleteWeightsAction.Delete(access, new DeleteWeightsRequest(name), ActionListener.noop());
    }

    private ClusterState withTables(ClusterState state, WeightsTable... tables) {
        WeightsMetadata m = WeightsMetadata.EMPTY;
        for (WeightsTable t : tables) {
            m = m.with(t);
        }
        return access.withCustom(state, WeightsMetadata.TYPE, m);
    }

    private Map<String, WeightsTable> tables(ClusterState state) {
        WeightsMetadata m = access.custom(state, WeightsMetadata.TYPE);
        return m == null ? Map.of() : m.tables();
    }

    /** Runs the batch; each change's outcome in order: null when it succeeded, else its exception. */
    private record Outcome(ClusterState state, List<Exception> results) {}

    private Outcome run(ClusterState state, List<WeightsChanges.Change> changes) throws Exception {
        Map<WeightsChanges.Change, Exception> failures = new IdentityHashMap<>();
        Set<WeightsChanges.Change> succeeded = Collections.newSetFromMap(new IdentityHashMap<>());
        ClusterState after = ClusterStateTaskExecutorUtils.executeHandlingResults(state, executor, changes, succeeded::add,
            failures::put);
        List<Exception> results = new ArrayList<>();
        for (WeightsChanges.Change c : changes) {
            assertTrue("every change completes exactly once: " + c, succeeded.contains(c) != failures.containsKey(c));
            results.add(failures.get(c));
        }
        return new Outcome(after, results);
    }

    private static void assertStatus(Exception e, RestStatus status, String message) {
        assertNotNull("expected a failure with [" + message + "]", e);
        assertEquals(e.toString(), status, ExceptionsHelper.status(e));
        assertTrue(e.getMessage(), e.getMessage().contains(message));
    }

    public void testTheFirstPutOfANameInABatchWinsTheOthersAre409() throws Exception {
        WeightsTable first = table("a", 2.0);
        Outcome o = run(CompatTestState.state(), List.of(put(first), put(table("a", 3.0)), put(table("b", 1.0)), put(table("a", 4.0))));
        assertNull(o.results().get(0));
        assertStatus(o.results().get(1), RestStatus.CONFLICT,
            "feature-weight table [a] already exists; tables are immutable: a new table is a new name");
        assertNull(o.results().get(2));
        assertNotNull(o.results().get(3));
        assertEquals(Set.of("a", "b"), tables(o.state()).keySet());
        assertEquals("the first put's table", first, tables(o.state()).get("a"));
        assertEquals(2.0, tables(o.state()).get("a").defaultWeight(), 0);
    }

    public void testAPutOfANameTakenBeforeTheBatchIs409() throws Exception {
        ClusterState state = withTables(CompatTestState.state(), table("a", 2.0));
        Outcome o = run(state, List.of(put(table("a", 3.0))));
        assertStatus(o.results().get(0), RestStatus.CONFLICT, "feature-weight table [a] already exists");
        assertSame("nothing changed: nothing to publish", state, o.state());
    }

    public void testTheTotalLimitCountsTablesAddedAndDeletedEarlierInTheBatch() throws Exception {
        // one map of the most features a table may hold, shared by the tables (they differ by name only)
        Map<String, Double> most = new LinkedHashMap<>();
        for (int i = 0; i < WeightsTable.MAX_FEATURES; i++) {
            most.put("f" + i, 1.0);
        }
        int full = WeightsTable.MAX_TOTAL_FEATURES / WeightsTable.MAX_FEATURES;
        assertEquals("the limit is a whole number of full tables", WeightsTable.MAX_TOTAL_FEATURES, full * WeightsTable.MAX_FEATURES);
        ClusterState state = withTables(CompatTestState.state(), table("big0", most));
        List<WeightsChanges.Change> batch = new ArrayList<>();
        for (int i = 1; i < full; i++) {
            batch.add(put(table("big" + i, most)));
        }
        batch.add(put(table("one", 1.0)));         // over the limit by one: the tables added before it in the batch count
        batch.add(delete("big0"));                 // frees a full table
        batch.add(put(table("one", 1.0)));         // now fits
        batch.add(put(table("big" + full, most))); // over again: the delete and the put before it count
        Outcome o = run(state, batch);
        for (int i = 0; i < full - 1; i++) {
            assertNull("big" + (i + 1), o.results().get(i));
        }
        assertStatus(o.results().get(full - 1), RestStatus.BAD_REQUEST, "[features] the cluster's feature-weight tables would hold "
            + (WeightsTable.MAX_TOTAL_FEATURES + 1) + " features, at most " + WeightsTable.MAX_TOTAL_FEATURES + " are allowed");
        assertNull(o.results().get(full));
        assertNull(o.results().get(full + 1));
        assertStatus(o.results().get(full + 2), RestStatus.BAD_REQUEST, "would hold " + (WeightsTable.MAX_TOTAL_FEATURES + 1)
            + " features");
        Map<String, WeightsTable> after = tables(o.state());
        assertFalse(after.containsKey("big0"));
        assertTrue(after.containsKey("one"));
        assertFalse(after.containsKey("big" + full));
        assertEquals(WeightsTable.MAX_TOTAL_FEATURES - WeightsTable.MAX_FEATURES + 1L,
            ((WeightsMetadata) access.custom(o.state(), WeightsMetadata.TYPE)).totalFeatures());
    }

    /** Long features: few of them fill a table's or the cluster's byte budget long before the feature-count limits. */
    private static Map<String, Double> longFeatures(String prefix, int count, int length) {
        Map<String, Double> m = new LinkedHashMap<>();
        for (int i = 0; i < count; i++) {
            String head = prefix + i + "-";
            m.put(head + "x".repeat(length - head.length()), 1.0);
        }
        return m;
    }

    public void testTablesAreBoundedInBytesOneByOneAndTogether() throws Exception {
        // 1,000 ASCII characters + 8 bytes per factor: 1,008 bytes a feature, whatever the feature count limits say
        int perTable = (int) (WeightsTable.MAX_BYTES / 1_008);
        WeightsTable tooBig = table("too-big", longFeatures("b", perTable + 1, 1_000));
        assertEquals((perTable + 1) * 1_008L, tooBig.bytes());
        int third = (int) (WeightsTable.MAX_TOTAL_BYTES / 3 / 1_008) + 1;
        List<WeightsChanges.Change> batch = List.of(put(tooBig), put(table("t1", longFeatures("p", third, 1_000))),
            put(table("t2", longFeatures("q", third, 1_000))), put(table("t3", longFeatures("r", third, 1_000))),
            put(table("small", 1.0)));
        Outcome o = run(CompatTestState.state(), batch);
        assertStatus(o.results().get(0), RestStatus.BAD_REQUEST, "[features] table [too-big] holds " + (perTable + 1) * 1_008L
            + " bytes (UTF-8 bytes of its " + (perTable + 1) + " features + 8 per factor), a table holds at most " + WeightsTable.MAX_BYTES
            + " bytes");
        assertNull(o.results().get(1));
        assertNull(o.results().get(2));
        assertStatus(o.results().get(3), RestStatus.BAD_REQUEST, "[features] the cluster's feature-weight tables would hold "
            + 3L * third * 1_008 + " bytes (UTF-8 bytes of their features + 8 per factor), at most " + WeightsTable.MAX_TOTAL_BYTES);
        assertNull("a small table still fits", o.results().get(4));
        assertEquals(Set.of("t1", "t2", "small"), tables(o.state()).keySet());
    }

    public void testDeletesInABatchSeeTheChangesBeforeThem() throws Exception {
        ClusterState state = withTables(CompatTestState.state(), table("a", 2.0), table("keep", 1.0));
        Outcome o = run(state, List.of(delete("a"), delete("a"), put(table("a", 5.0)), delete("missing"), delete("a"), put(table("c", 1.0))));
        assertNull(o.results().get(0));
        assertStatus(o.results().get(1), RestStatus.NOT_FOUND, "feature-weight table [a] not found");
        assertTrue(o.results().get(1) instanceof ResourceNotFoundException);
        assertNull("a deleted name can be put again", o.results().get(2));
        assertStatus(o.results().get(3), RestStatus.NOT_FOUND, "feature-weight table [missing] not found");
        assertNull("the table put earlier in the batch is deleted", o.results().get(4));
        assertNull(o.results().get(5));
        assertEquals(Set.of("keep", "c"), tables(o.state()).keySet());
    }

    public void testATableInUseIsNotDeletedInABatch() throws Exception {
        IndexMetadata index = IndexMetadata.builder("docs").settings(indexSettings(IndexVersion.current(), 1, 0))
            .putMapping("{\"_doc\": {\"properties\": {\"fp\": {\"type\": \"simhash\", \"version\": \"v2\", \"weights\": \"used\"}}}}")
            .build();
        ClusterState state = CompatTestState.state(index);
        Outcome o = run(state, List.of(put(table("used", 1.0)), delete("used"), delete("used"), put(table("free", 1.0)), delete("free")));
        assertNull(o.results().get(0));
        assertStatus(o.results().get(1), RestStatus.CONFLICT, "feature-weight table [used] is in use by 1: index [docs] field [fp]; "
            + "delete or change those first");
        assertStatus(o.results().get(2), RestStatus.CONFLICT, "is in use by 1");
        assertNull(o.results().get(3));
        assertNull(o.results().get(4));
        assertEquals(Set.of("used"), tables(o.state()).keySet());
    }

    public void testABatchOfRefusalsLeavesTheStateAsItWas() throws Exception {
        ClusterState state = withTables(CompatTestState.state(), table("a", 2.0));
        Outcome o = run(state, List.of(put(table("a", 1.0)), delete("b"), put(table("a", 1.0))));
        assertSame(state, o.state());
        for (Exception e : o.results()) {
            assertNotNull(e);
        }
        // and on a state without any table yet
        ClusterState empty = CompatTestState.state();
        assertSame(empty, run(empty, List.of(delete("a"))).state());
    }
}
