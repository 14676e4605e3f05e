package dev.simhash.it;

import dev.simhash.it.support.EsCluster;
import dev.simhash.it.support.RealNodes;
import dev.simhash.it.support.Rest;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Background reports under Elasticsearch security (its own single node, file-realm users): a report's record is readable
 * and deletable only by users who may read all its indices (the user who started it can), never through {@code _tasks};
 * records expire after their keep-alive; a cancelled report reads back as cancelled; a report whose node died reads back
 * as interrupted after the restart.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Tag("smoke")
class AsyncReportSecurityIT {

    static final String PASSWORD = "simhash-secret-1";
    static final String SECRET = "secret";
    static final String PUBLIC = "public";
    /** Fingerprints sharing blocks 0..2: one huge bucket, so grouping takes seconds (time to look at a running report). */
    static final String SLOW = "public-slow";

    private EsCluster cluster;
    private Rest admin;
    private final CollapseCorpus corpus = CollapseCorpus.planted(4242, 800, 20, 4);

    @BeforeAll
    void start() throws Exception {
        cluster = EsCluster.builder(RealNodes.distribution(), RealNodes.workDir().resolve("async-secure")).name("async-secure")
            .security("admin", PASSWORD)
            .setting("simhash.reports.cleanup_interval", "1s")
            .role("""
                public_reader:
                  indices:
                    - names: ['public*']
                      privileges: ['read']
                monitor_only:
                  cluster: ['monitor']
                alias_reader:
                  indices:
                    - names: ['alias-of-public']
                      privileges: ['read']
                """)
            .user("reader", PASSWORD, "public_reader")
            .user("watcher", PASSWORD, "monitor_only")
            .user("aliased", PASSWORD, "alias_reader")
            .build().start();
        admin = cluster.rest();
        corpus.load(admin, SECRET, 2, null);
        corpus.load(admin, PUBLIC, 1, null);
        admin.ok("POST", "/_aliases", "{\"actions\": [{\"add\": {\"index\": \"" + PUBLIC + "\", \"alias\": \"alias-of-public\"}}]}");
        CollapseCorpus.loadSlow(admin, SLOW, 1, 7);
    }

    @AfterAll
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    static String report(String extra) {
        return "{\"field\": \"simhash\", \"max_distance\": 4, \"size\": 1000, \"max_members\": 10000" + extra + "}";
    }

    static String start(Rest as, String index, String body, String params) {
        Rest.Answer a = as.post("/" + index + "/_simhash/duplicates?wait_for_completion=false" + params, body);
        assertEquals(200, a.status(), a.toString());
        String id = a.at("id");
        assertNotNull(id, a.toString());
        // an id says nothing of other reports: random, not the task's (node:number) id, which the answer gives apart
        assertTrue(id.matches("[A-Za-z0-9_-]{22}"), a.toString());
        assertTrue(String.valueOf((Object) a.at("task")).matches("[A-Za-z0-9_-]+:[0-9]+"), a.toString());
        return id;
    }

    /** Polls the report as {@code as} until it is no longer running; returns the last answer. */
    static Rest.Answer awaitEnd(Rest as, String id) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        Rest.Answer a = null;
        while (System.nanoTime() < deadline) {
            a = as.get("/_simhash/duplicates/" + id);
            assertEquals(200, a.status(), a.toString());
            if (Boolean.FALSE.equals(a.at("is_running"))) {
                return a;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("report [" + id + "] still running: " + a);
    }

    /** Polls the running report until its live status shows {@code phase}. */
    static Rest.Answer awaitPhase(Rest as, String id, String phase) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        List<Object> seen = new ArrayList<>();
        while (System.nanoTime() < deadline) {
            Rest.Answer a = as.get("/_simhash/duplicates/" + id);
            assertEquals(200, a.status(), a.toString());
            assertEquals("running", a.at("state"), "ended before phase [" + phase + "]; seen " + seen + ": " + a);
            Object p = a.at("status.phase");
            seen.add(p);
            if (phase.equals(p)) {
                return a;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("phase [" + phase + "] never showed; seen " + seen);
    }

    @SuppressWarnings("unchecked")
    static List<String> memberIds(Map<String, Object> report) {
        List<String> ids = new ArrayList<>();
        for (Map<String, Object> g : (List<Map<String, Object>>) report.get("groups")) {
            for (Map<String, Object> m : (List<Map<String, Object>>) g.get("members")) {
                ids.add((String) m.get("_id"));
            }
        }
        return ids;
    }

    @Test
    @Order(1)
    void anAdminsReportOnSecretIsReadableOnlyByWhoMayReadSecret() throws Exception {
        Rest.Answer sync = admin.post("/" + SECRET + "/_simhash/duplicates", report(""));
        assertEquals(200, sync.status(), sync.toString());
        List<String> secretIds = memberIds(sync.json());
        assertTrue(secretIds.size() > 20, sync.toString());

        String id = start(admin, SECRET, report(""), "");
        Rest.Answer done = awaitEnd(admin, id);
        assertEquals("completed", done.at("state"), done.toString());
        assertEquals(List.of(SECRET), done.at("indices"), done.toString());
        assertEquals(DuplicatesAsyncIT.comparable(sync.json()), DuplicatesAsyncIT.comparable(done.at("response")), done.toString());

        Rest watcher = cluster.restAs("watcher");
        Rest reader = cluster.restAs("reader");
        // to whoever may not read it, the report answers exactly as an unknown one: neither its indices nor its existence
        // (a reader of other indices: 404; a user who may read no index at all is refused the action itself: 403)
        String unknown = "AAAAAAAAAAAAAAAAAAAAAA";
        for (Rest outsider : List.of(watcher, reader)) {
            Rest.Answer get = outsider.get("/_simhash/duplicates/" + id);
            Rest.Answer getUnknown = outsider.get("/_simhash/duplicates/" + unknown);
            assertEquals(outsider == reader ? 404 : 403, get.status(), get.toString());
            assertEquals(getUnknown.body().replace(unknown, "ID"), get.body().replace(id, "ID"));
            assertFalse(get.body().contains(SECRET), get.toString());
            Rest.Answer delete = outsider.delete("/_simhash/duplicates/" + id);
            assertEquals(get.status(), delete.status(), delete.toString());
            assertEquals(outsider.delete("/_simhash/duplicates/" + unknown).body().replace(unknown, "ID"), delete.body().replace(id, "ID"));
        }
        // the refused delete left the record in place
        assertEquals(200, admin.get("/_simhash/duplicates/" + id).status());

        // nothing of the report is kept as a task result: _tasks shows no member ids of secret to a monitor-only user
        String taskId = done.at("task");
        for (Rest who : List.of(watcher, admin)) {
            Rest.Answer task = who.get("/_tasks/" + taskId);
            assertEquals(404, task.status(), task.toString());
            for (String docId : secretIds) {
                assertFalse(task.body().contains("\"" + docId + "\""), "document id [" + docId + "] leaked: " + task);
            }
        }
    }

    @Test
    @Order(2)
    void aReaderReadsAndDeletesTheirOwnReport() throws Exception {
        Rest reader = cluster.restAs("reader");
        Rest.Answer sync = reader.post("/" + PUBLIC + "/_simhash/duplicates", report(""));
        assertEquals(200, sync.status(), sync.toString());
        String id = start(reader, PUBLIC, report(""), "");
        Rest.Answer done = awaitEnd(reader, id);
        assertEquals("completed", done.at("state"), done.toString());
        assertEquals(DuplicatesAsyncIT.comparable(sync.json()), DuplicatesAsyncIT.comparable(done.at("response")), done.toString());
        Rest.Answer delete = reader.delete("/_simhash/duplicates/" + id);
        assertEquals(200, delete.status(), delete.toString());
        assertEquals(Boolean.TRUE, delete.at("acknowledged"), delete.toString());
        assertEquals(404, reader.get("/_simhash/duplicates/" + id).status());
        assertEquals(404, admin.get("/_simhash/duplicates/" + id).status());

        // a running one: the reader sees its progress, and deleting it cancels it
        String running = start(reader, SLOW, report(""), "");
        Rest.Answer grouping = awaitPhase(reader, running, "group");
        assertEquals(50_000, ((Number) grouping.at("status.docs_read")).intValue(), grouping.toString());
        Rest.Answer cancel = reader.delete("/_simhash/duplicates/" + running);
        assertEquals(200, cancel.status(), cancel.toString());
        assertEquals(404, reader.get("/_simhash/duplicates/" + running).status());
        Rest.Answer tasks = admin.get("/_tasks?actions=*simhash*");
        assertFalse(tasks.body().contains("simhash/duplicates\""), "the report's task was cancelled: " + tasks);
    }

    /** A user whose read privilege is on an alias runs reports on it, and reads and deletes their own background report. */
    @Test
    @Order(2)
    void aReaderOfAnAliasRunsReadsAndDeletesTheirReport() throws Exception {
        Rest aliased = cluster.restAs("aliased");
        Rest.Answer expected = admin.post("/" + PUBLIC + "/_simhash/duplicates", report(""));
        Rest.Answer sync = aliased.post("/alias-of-public/_simhash/duplicates", report(""));
        assertEquals(200, sync.status(), sync.toString());
        assertEquals(DuplicatesAsyncIT.comparable(expected.json()), DuplicatesAsyncIT.comparable(sync.json()), sync.toString());
        String id = start(aliased, "alias-of-public", report(""), "");
        Rest.Answer done = awaitEnd(aliased, id);
        assertEquals("completed", done.at("state"), done.toString());
        assertEquals(DuplicatesAsyncIT.comparable(expected.json()), DuplicatesAsyncIT.comparable(done.at("response")), done.toString());
        Rest.Answer delete = aliased.delete("/_simhash/duplicates/" + id);
        assertEquals(200, delete.status(), delete.toString());
        assertEquals(404, aliased.get("/_simhash/duplicates/" + id).status());
    }

    @Test
    @Order(3)
    void aCancelledReportReadsBackAsCancelled() throws Exception {
        String id = start(admin, SLOW, report(""), "");
        awaitPhase(admin, id, "group");
        Rest.Answer cancel = admin.post("/_tasks/" + admin.get("/_simhash/duplicates/" + id).at("task") + "/_cancel", null);
        assertEquals(200, cancel.status(), cancel.toString());
        Rest.Answer done = awaitEnd(admin, id);
        assertEquals("cancelled", done.at("state"), done.toString());
        assertEquals(Boolean.TRUE, done.at("cancelled"), done.toString());
        assertEquals("task_cancelled_exception", done.at("error.type"), done.toString());
        assertNull(done.at("response"), done.toString());
    }

    @Test
    @Order(4)
    void recordsAreRemovedAfterTheirKeepAlive() throws Exception {
        Rest reader = cluster.restAs("reader");
        String kept = start(reader, PUBLIC, report(""), "&keep_alive=1h");
        String brief = start(reader, PUBLIC, report(""), "&keep_alive=3s");
        Rest.Answer first = reader.get("/_simhash/duplicates/" + brief);
        assertEquals(200, first.status(), first.toString());
        long expires = ((Number) first.at("expiration_time_in_millis")).longValue();
        long started = ((Number) first.at("start_time_in_millis")).longValue();
        assertEquals(3_000, expires - started, first.toString());
        Rest.Answer record = admin.get("/.simhash-reports/_doc/" + brief);
        assertEquals(200, record.status(), "the record is in the plugin's index: " + record);
        awaitEnd(reader, kept);
        // removed by the node's periodic cleanup (every second here), not only hidden
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline && admin.get("/.simhash-reports/_doc/" + brief).status() != 404) {
            Thread.sleep(200);
        }
        Rest.Answer gone = admin.get("/.simhash-reports/_doc/" + brief);
        assertEquals(404, gone.status(), gone.toString());
        assertEquals(404, reader.get("/_simhash/duplicates/" + brief).status());
        assertEquals(200, reader.get("/_simhash/duplicates/" + kept).status(), "an unexpired record stays");

        Rest.Answer tooShort = reader.post("/" + PUBLIC + "/_simhash/duplicates?wait_for_completion=false&keep_alive=0s", report(""));
        assertEquals(400, tooShort.status(), tooShort.toString());
        assertTrue(tooShort.body().contains("[keep_alive] must be at least [1s], got [0s]"), tooShort.toString());
        Rest.Answer notTime = reader.post("/" + PUBLIC + "/_simhash/duplicates?wait_for_completion=false&keep_alive=soon", report(""));
        assertEquals(400, notTime.status(), notTime.toString());
        assertTrue(notTime.body().contains("[keep_alive]"), notTime.toString());
        Rest.Answer sync = reader.post("/" + PUBLIC + "/_simhash/duplicates?keep_alive=1h", report(""));
        assertEquals(400, sync.status(), sync.toString());
        assertTrue(sync.body().contains("[keep_alive] applies only with [wait_for_completion=false]"), sync.toString());
    }

    @Test
    @Order(5)
    void aReportWhoseNodeDiedReadsBackAsInterrupted() throws Exception {
        String id = start(admin, SLOW, report(", \"write_group_id\": \"dup_group\""), "");
        awaitPhase(admin, id, "write");
        // the progress written to the record every few seconds: killed while writing group ids, the record says how far
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        Rest.Answer stored = admin.get("/.simhash-reports/_doc/" + id);
        while (System.nanoTime() < deadline && "write".equals(stored.at("_source.status.phase")) == false) {
            Thread.sleep(100);
            stored = admin.get("/.simhash-reports/_doc/" + id);
        }
        assertEquals("write", stored.at("_source.status.phase"), stored.toString());
        assertEquals("running", stored.at("_source.state"), stored.toString());
        // a realtime get can see an update whose translog sync has not ended; the kill must not take the progress with it
        admin.ok("POST", "/.simhash-reports/_flush", null);
        cluster.killNode(0);
        cluster.restartNode(0);
        // a restart on a loaded machine can take minutes
        cluster.waitForGreen(Duration.ofMinutes(5));
        Rest.Answer after = admin.get("/_simhash/duplicates/" + id);
        assertEquals(200, after.status(), after.toString());
        assertEquals("interrupted", after.at("state"), after.toString());
        assertEquals(Boolean.FALSE, after.at("is_running"), after.toString());
        assertEquals(Boolean.TRUE, after.at("interrupted.group_ids_partly_written"), after.toString());
        assertTrue(String.valueOf((Object) after.at("interrupted.advice")).contains("run the report again"), after.toString());
        assertEquals("write", after.at("status.phase"), after.toString());
        assertEquals(50_000, ((Number) after.at("status.docs_to_write")).intValue(), after.toString());
        long written = ((Number) after.at("status.docs_written")).longValue();
        assertTrue(written < 50_000, "killed before the end of the write phase: " + after);
        // deleting an interrupted report has no task to cancel
        Rest.Answer delete = admin.delete("/_simhash/duplicates/" + id);
        assertEquals(200, delete.status(), delete.toString());
    }
}
