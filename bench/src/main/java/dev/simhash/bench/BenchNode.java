package dev.simhash.bench;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.simhash.it.support.EsCluster;
import dev.simhash.it.support.EsDistribution;
import dev.simhash.it.support.RealNodes;
import dev.simhash.it.support.Rest;

import org.apache.http.HttpHost;
import org.apache.http.entity.ContentType;
import org.apache.http.nio.entity.NStringEntity;
import org.apache.http.util.EntityUtils;
import org.elasticsearch.client.Request;
import org.elasticsearch.client.Response;
import org.elasticsearch.client.ResponseException;
import org.elasticsearch.client.RestClient;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The real Elasticsearch node the benchmarks run against: the official distribution with the freshly
 * built plugin zip installed, started by the project's test harness on 127.0.0.1, plus a REST client
 * with timeouts long enough for force-merges and bulk loads.
 */
public final class BenchNode implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** An HTTP answer with its client-side wall time. */
    public record Answer(int status, String body, long nanos) {
        public Map<String, Object> json() {
            try {
                return JSON.readValue(body, new TypeReference<Map<String, Object>>() {});
            } catch (IOException e) {
                throw new UncheckedIOException("not JSON: " + body, e);
            }
        }

        public boolean ok() {
            return status / 100 == 2;
        }
    }

    private final EsCluster cluster;
    private final RestClient client;

    private BenchNode(EsCluster cluster) {
        this.cluster = cluster;
        String[] hostPort = cluster.httpAddress().split(":");
        this.client = RestClient.builder(new HttpHost(hostPort[0], Integer.parseInt(hostPort[1]), "http"))
            .setRequestConfigCallback(c -> c.setConnectTimeout(10_000).setSocketTimeout(3_600_000).setConnectionRequestTimeout(60_000))
            .build();
    }

    /** Installs the distribution and plugin under {@code workDir} and starts a single node with the heap. */
    public static BenchNode start(Path workDir, String heap, Log log) throws IOException {
        return start(workDir, heap, log, 1);
    }

    /** As above with {@code nodes} nodes on loopback, each with the heap; requests go to the first. */
    public static BenchNode start(Path workDir, String heap, Log log, int nodes) throws IOException {
        log.info("installing Elasticsearch and the plugin zip " + RealNodes.pluginZip().getFileName() + " under " + workDir);
        EsDistribution dist = EsDistribution.install(RealNodes.distributionZip(), workDir, List.of(RealNodes.pluginZip()));
        log.info("starting " + (nodes == 1 ? "a single node" : nodes + " nodes") + " (heap " + heap + " each) on 127.0.0.1 ...");
        EsCluster cluster = EsCluster.builder(dist, workDir.resolve("cluster")).name("simhash-bench").heap(heap).nodes(nodes)
            .setting("indices.memory.index_buffer_size", "\"20%\"")
            .build()
            .start();
        log.info("node is green at " + cluster.httpAddress());
        return new BenchNode(cluster);
    }

    public Answer call(String method, String path, String body) {
        Request r = new Request(method, path);
        if (body != null) {
            r.setEntity(new NStringEntity(body, ContentType.APPLICATION_JSON));
        }
        return perform(r);
    }

    /** Per-field bytes from the analyze-disk-usage API, for fields whose name starts with the prefix. */
    public Map<String, Long> diskUsage(String index, String prefix) {
        return diskUsage(index, prefix, false);
    }

    /**
     * As {@link #diskUsage(String, String)}; with {@code parts}, each field's inverted index and doc values apart too
     * ({@code name[inverted_index]}, {@code name[doc_values]}), so the entries no longer add up to the total.
     */
    public Map<String, Long> diskUsage(String index, String prefix, boolean parts) {
        Map<String, Object> du = ok("POST", "/" + index + "/_disk_usage?run_expensive_tasks=true", null).json();
        Map<String, Object> fields = at(du, index + ".fields");
        Map<String, Long> out = new LinkedHashMap<>();
        if (fields != null) {
            fields.forEach((name, v) -> {
                if (name.startsWith(prefix)) {
                    out.put(name, ((Number) at(v, "total_in_bytes")).longValue());
                    if (parts) {
                        out.put(name + "[inverted_index]", ((Number) at(v, "inverted_index.total_in_bytes")).longValue());
                        out.put(name + "[doc_values]", ((Number) at(v, "doc_values_in_bytes")).longValue());
                    }
                }
            });
        }
        return out;
    }

    /** Like {@link #call} but throws unless the answer is 2xx. */
    public Answer ok(String method, String path, String body) {
        Answer a = call(method, path, body);
        if (!a.ok()) {
            throw new IllegalStateException(method + " " + path + " answered " + a.status() + ": " + abbreviate(a.body()));
        }
        return a;
    }

    public Answer bulk(String path, String ndjson) {
        Request r = new Request("POST", path);
        r.setEntity(new NStringEntity(ndjson, ContentType.create("application/x-ndjson", StandardCharsets.UTF_8)));
        return perform(r);
    }

    private Answer perform(Request r) {
        long t0 = System.nanoTime();
        try {
            Response resp = client.performRequest(r);
            String body = resp.getEntity() == null ? "" : EntityUtils.toString(resp.getEntity(), StandardCharsets.UTF_8);
            return new Answer(resp.getStatusLine().getStatusCode(), body, System.nanoTime() - t0);
        } catch (ResponseException e) {
            try {
                Response resp = e.getResponse();
                String body = resp.getEntity() == null ? "" : EntityUtils.toString(resp.getEntity(), StandardCharsets.UTF_8);
                return new Answer(resp.getStatusLine().getStatusCode(), body, System.nanoTime() - t0);
            } catch (IOException io) {
                throw new UncheckedIOException(io);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(r.getMethod() + " " + r.getEndpoint() + " failed", e);
        }
    }

    public static String toJson(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Value at a dotted path of a parsed JSON object (list elements by index). */
    public static <T> T at(Object json, String path) {
        return Rest.at(json, path);
    }

    static String abbreviate(String s) {
        return s.length() <= 600 ? s : s.substring(0, 600) + "...";
    }

    /** Runs a diagnostic command in the node's JVM ({@code jcmd}); its output, or null when it failed. */
    public String jcmd(String... command) {
        try {
            return cluster.jcmd(0, command);
        } catch (IOException e) {
            return null;
        }
    }

    /** A directory the node's user can write (for files the node writes, e.g. a flight recording). */
    public Path tmpDir() {
        return cluster.tmpDir(0);
    }

    /** The node's data directory (for disk usage notes). */
    public Path dir() {
        return cluster.dir();
    }

    @Override
    public void close() {
        try {
            client.close();
        } catch (IOException ignored) {
            // stopping anyway
        }
        cluster.close();
    }
}
