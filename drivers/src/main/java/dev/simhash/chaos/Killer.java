package dev.simhash.chaos;

import dev.simhash.it.support.Rest;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * SIGKILLs a random node at a steady pace and restarts it, waiting for it to rejoin (all nodes, at least yellow) before
 * the next kill; once per run it restarts one node with a small heap and keeps it so (and out of the kills) for a while,
 * then gives it its normal heap back. Also watches the cluster's health and notices nodes that died on their own.
 */
final class Killer {

    static final String NORMAL_HEAP = "1g";
    static final String SMALL_HEAP = "320m";
    private static final long INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(25);
    static final long FIRST_KILL_SECONDS = 15;
    private static final long FIRST_KILL_NANOS = TimeUnit.SECONDS.toNanos(FIRST_KILL_SECONDS);
    private static final Duration REJOIN_TIMEOUT = Duration.ofMinutes(4);
    /** The squeeze begins at this fraction of the run and ends at the second one (after at least its hold time). */
    private static final double SQUEEZE_FROM = 0.1;
    private static final double SQUEEZE_TO = 0.6;

    /** The squeezed node keeps its small heap, under load, at least this long after it came back. */
    private static final long SQUEEZE_HOLD_NANOS = TimeUnit.SECONDS.toNanos(90);

    private final ChaosState s;
    private volatile long squeezedBackAt;
    private final PrintStream log;
    private final Random r;
    private volatile boolean squeezeDone;
    volatile int restarts;
    /** Time spent waiting for the next scheduled kill: near 0 when restarts, not the schedule, set the pace. */
    volatile long idleNanos;
    volatile String squeezeNote = "not reached";

    Killer(ChaosState s, PrintStream log) {
        this.s = s;
        this.log = log;
        this.r = new Random(s.seed * 65_537L + 17);
    }

    Thread start() {
        Thread.ofPlatform().daemon().name("chaos-health").start(this::watchHealth);
        return Thread.ofPlatform().name("chaos-killer").start(this::killLoop);
    }

    private void killLoop() {
        long next = s.startedAt + FIRST_KILL_NANOS;
        long duration = s.deadline - s.startedAt;
        while (s.running()) {
            if (System.nanoTime() < next) {
                ChaosLoad.pause(200);
                idleNanos += 200_000_000L;
                continue;
            }
            double at = (System.nanoTime() - s.startedAt) / (double) duration;
            int node = pick();
            String heap = NORMAL_HEAP;
            if (!squeezeDone && s.squeezed < 0 && at >= SQUEEZE_FROM) {
                heap = SMALL_HEAP;
            } else if (s.squeezed >= 0 && at >= SQUEEZE_TO && System.nanoTime() - squeezedBackAt >= SQUEEZE_HOLD_NANOS) {
                node = s.squeezed;   // give the squeezed node its heap back through one more kill
            }
            try {
                kill(node, heap);
            } catch (IOException | RuntimeException e) {
                log.println("[chaos] killer: " + e);
                s.unexpectedDeaths.add("restart of " + s.cluster.nodeName(node) + " failed: " + e);
                return;
            }
            next = Math.max(next + INTERVAL_NANOS, System.nanoTime() + TimeUnit.SECONDS.toNanos(3));
        }
    }

    private int pick() {
        int node;
        do {
            node = r.nextInt(s.cluster.size());
        } while (node == s.squeezed);
        return node;
    }

    private void kill(int node, String heap) throws IOException {
        ChaosState.Kill k = new ChaosState.Kill(node, System.nanoTime(), heap);
        s.disturbances.mark(k.killedAt);
        s.kills.add(k);
        s.cluster.killNode(node);
        if (node == s.squeezed && heap.equals(NORMAL_HEAP)) {
            s.squeezed = -1;
            squeezeDone = true;
            squeezeNote += String.format(Locale.ROOT, "; back to %s at %.0fs", heap, s.seconds(System.nanoTime()));
        }
        ChaosLoad.pause(1000);
        s.cluster.setNodeHeap(node, heap);
        s.cluster.restartNode(node);
        restarts++;
        awaitRejoin(node);
        k.rejoinedAt = System.nanoTime();
        s.disturbances.mark(k.rejoinedAt);
        if (heap.equals(SMALL_HEAP)) {
            squeezedBackAt = k.rejoinedAt;
            s.squeezed = node;
            squeezeNote = String.format(Locale.ROOT, "%s restarted with -Xmx%s at %.0fs", s.cluster.nodeName(node), heap,
                s.seconds(k.killedAt));
        }
        log.printf(Locale.ROOT, "[chaos] %5.0fs kill #%d: %s (SIGKILL), restarted with %s, back in %.1fs%n", s.seconds(k.killedAt),
            s.kills.size(), s.cluster.nodeName(node), heap, (k.rejoinedAt - k.killedAt) / 1e9);
    }

    /**
     * Waits until the restarted node itself answers that the cluster has all its nodes and is at least yellow: asking any
     * other node could see the killed node as still present, before the master noticed it was gone.
     */
    private void awaitRejoin(int node) {
        long limit = System.nanoTime() + REJOIN_TIMEOUT.toNanos();
        String last = "no answer";
        while (System.nanoTime() < limit) {
            if (!s.cluster.isRunning(node)) {
                throw new IllegalStateException(s.cluster.nodeName(node) + " exited while starting; see its console.log");
            }
            try {
                Rest.Answer a = s.node(node).get("/_cluster/health?wait_for_nodes=" + s.cluster.size() + "&wait_for_status=yellow&timeout=2s");
                if (a.status() == 200 && Boolean.FALSE.equals(a.at("timed_out"))) {
                    return;
                }
                last = a.toString();
            } catch (UncheckedIOException e) {
                last = String.valueOf(e.getCause());
            }
            ChaosLoad.pause(500);
        }
        throw new IllegalStateException(s.cluster.nodeName(node) + " did not rejoin within " + REJOIN_TIMEOUT + ": " + last);
    }

    /** Polls the health every 2 s: anything but green with all nodes marks a disturbance; a node dead on its own is recorded. */
    private void watchHealth() {
        while (!s.stop) {
            long now = System.nanoTime();
            try {
                Rest.Answer a = s.rest.get("/_cluster/health?timeout=1s");
                Number nodes = a.at("number_of_nodes");
                if (a.status() != 200 || !"green".equals(a.at("status")) || nodes == null || nodes.intValue() < s.cluster.size()) {
                    s.disturbances.mark(now);
                }
            } catch (UncheckedIOException e) {
                s.disturbances.mark(now);
            }
            for (int i = 0; i < s.cluster.size(); i++) {
                final int node = i;
                boolean beingKilled = s.kills.stream().anyMatch(k -> k.node == node && k.rejoinedAt == 0);
                if (!beingKilled && !s.cluster.isRunning(i) && s.unexpectedDeaths.stream().noneMatch(d -> d.startsWith(s.cluster.nodeName(
                    node) + " "))) {
                    s.unexpectedDeaths.add(s.cluster.nodeName(i) + " died on its own at " + Math.round(s.seconds(now)) + "s");
                    log.println("[chaos] " + s.cluster.nodeName(i) + " died on its own!");
                }
            }
            ChaosLoad.pause(2000);
        }
    }
}
