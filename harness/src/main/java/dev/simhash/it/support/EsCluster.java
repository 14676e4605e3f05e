package dev.simhash.it.support;

import org.apache.http.HttpHost;
import org.elasticsearch.client.Request;
import org.elasticsearch.client.Response;
import org.elasticsearch.client.ResponseException;
import org.elasticsearch.client.RestClient;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * One or more real Elasticsearch nodes started from an {@link EsDistribution} on 127.0.0.1 with
 * free ports (of the range {@link PortRange} names, if any), as an unprivileged uid when the build runs as root. Always {@link #close()} it (the
 * harness also registers a shutdown hook), unless it is {@linkplain Builder#detached(boolean)
 * detached}; node logs stay under the cluster directory.
 */
public final class EsCluster implements AutoCloseable {

    /** The uid:gid the nodes run as when the build runs as root (ES refuses to run as root). */
    public static final int UNPRIVILEGED_UID = 4242;
    private static final Duration START_TIMEOUT = Duration.ofSeconds(240);

    private final EsDistribution distribution;
    private final Path dir;
    private final String name;
    private final String heap;
    private final Map<String, String> settings;
    private final Map<String, String[]> users;
    private final String rolesYml;
    private final String superUser;
    private final List<RestClient> extraClients = new ArrayList<>();
    private final boolean detached;
    private final List<Node> nodes = new ArrayList<>();
    private final boolean asRoot = Processes.runningAsRoot();
    private RestClient client;
    private final Thread shutdownHook = new Thread(this::closeQuietly, "simhash-it-cluster-stop");

    private EsCluster(Builder b) {
        this.distribution = b.distribution;
        this.dir = b.dir;
        this.name = b.name;
        this.heap = b.heap;
        this.settings = new LinkedHashMap<>(b.settings);
        this.users = new LinkedHashMap<>(b.users);
        this.rolesYml = b.rolesYml.toString();
        this.superUser = b.superUser;
        this.detached = b.detached;
        for (int i = 0; i < b.nodeCount; i++) {
            nodes.add(new Node("node-" + i, dir.resolve("node-" + i)));
        }
    }

    public static Builder builder(EsDistribution distribution, Path clusterDir) {
        return new Builder(distribution, clusterDir);
    }

    /** Configures and starts every node, then waits until the cluster is green. */
    public EsCluster start() throws IOException {
        killLeftovers(dir);
        Processes.deleteRecursively(dir);
        Files.createDirectories(dir);
        checkReachableByNodeUser(dir);
        checkReachableByNodeUser(distribution.home());
        List<Integer> ports = PortRange.configured().freePorts(nodes.size() * 2);
        for (int i = 0; i < nodes.size(); i++) {
            nodes.get(i).httpPort = ports.get(2 * i);
            nodes.get(i).transportPort = ports.get(2 * i + 1);
        }
        for (Node n : nodes) {
            n.configure();
        }
        if (asRoot) {
            chownForNodes(distribution.home(), dir);
        }
        if (!detached) {
            Runtime.getRuntime().addShutdownHook(shutdownHook);
        }
        for (Node n : nodes) {
            n.start();
        }
        client = newClient(superUser);
        waitForGreen(START_TIMEOUT);
        return this;
    }

    private RestClient newClient(String user) {
        return newClient(user, nodes);
    }

    private RestClient newClient(String user, List<Node> to) {
        var builder = RestClient.builder(to.stream().map(n -> new HttpHost("127.0.0.1", n.httpPort, "http")).toArray(HttpHost[]::new));
        if (user != null) {
            String token = java.util.Base64.getEncoder()
                .encodeToString((user + ":" + users.get(user)[0]).getBytes(StandardCharsets.UTF_8));
            builder.setDefaultHeaders(new org.apache.http.Header[] { new org.apache.http.message.BasicHeader("Authorization", "Basic " + token) });
        }
        return builder.build();
    }

    /** True when the cluster runs with security (file-realm users, HTTP Basic). */
    public boolean secured() {
        return superUser != null;
    }

    /** A JSON helper authenticated as {@code user} (a user of the builder), or anonymous for null; closed with the cluster. */
    public synchronized Rest restAs(String user) {
        if (user != null && !users.containsKey(user)) {
            throw new IllegalArgumentException("no such user: " + user);
        }
        RestClient c = newClient(user);
        extraClients.add(c);
        return new Rest(c);
    }

    /** A JSON helper authenticated as {@code user} that sends every request to node {@code i} only; closed with the cluster. */
    public synchronized Rest restAs(String user, int i) {
        if (user != null && !users.containsKey(user)) {
            throw new IllegalArgumentException("no such user: " + user);
        }
        RestClient c = newClient(user, List.of(nodes.get(i)));
        extraClients.add(c);
        return new Rest(c);
    }

    /** A low-level REST client over all nodes' HTTP addresses (as the superuser when secured). */
    public RestClient client() {
        return client;
    }

    /** A JSON helper over {@link #client()}. */
    public Rest rest() {
        return new Rest(client);
    }

    /**
     * A JSON helper that sends every request to node {@code i} only, which coordinates it (as the superuser when
     * secured); closed with the cluster.
     */
    public synchronized Rest rest(int i) {
        RestClient c = newClient(superUser, List.of(nodes.get(i)));
        extraClients.add(c);
        return new Rest(c);
    }

    /** The {@code node.name} of node {@code i}. */
    public String nodeName(int i) {
        return nodes.get(i).name;
    }

    /**
     * Closes the REST client but leaves the nodes running: for a detached cluster that should
     * outlive this JVM (stop it later through the pid file, {@link #pidFile(int)}).
     */
    public void disconnect() {
        closeClient();
    }

    /** {@code 127.0.0.1:port} of the first node's HTTP endpoint. */
    public String httpAddress() {
        return "127.0.0.1:" + nodes.get(0).httpPort;
    }

    public int size() {
        return nodes.size();
    }

    /** The cluster's directory: one sub-directory per node with config/, data/, logs/ and tmp/. */
    public Path dir() {
        return dir;
    }

    /** The log directory of node {@code i}. */
    public Path logs(int i) {
        return nodes.get(i).dir.resolve("logs");
    }

    /** The pid file of node {@code i}'s server process, written by Elasticsearch ({@code -p}). */
    public Path pidFile(int i) {
        return nodes.get(i).pidFile();
    }

    /** Kills node {@code i} with SIGKILL, as a crash would. */
    public void killNode(int i) throws IOException {
        nodes.get(i).kill();
    }

    /** Starts node {@code i} again (same ports, data and config) after {@link #killNode}. */
    public void restartNode(int i) throws IOException {
        nodes.get(i).start();
    }

    /**
     * Restarts node {@code i} from another distribution (another Elasticsearch version with its plugins), keeping its data,
     * ports and configuration: one step of a rolling upgrade. Stops the node first if it runs (gracefully) and does not wait
     * for it to join. The node keeps its elasticsearch.yml, jvm.options.d and keystore; jvm.options and log4j2.properties,
     * which a distribution ships and users leave alone (custom options belong in jvm.options.d), come from the new one, as an
     * upgraded installation has them.
     */
    public void upgradeNode(int i, EsDistribution to) throws IOException {
        Node n = nodes.get(i);
        n.stop();
        checkReachableByNodeUser(to.home());
        for (String shipped : List.of("jvm.options", "log4j2.properties")) {
            Files.copy(to.home().resolve("config").resolve(shipped), n.config().resolve(shipped), StandardCopyOption.REPLACE_EXISTING);
        }
        if (asRoot) {
            chownForNodes(to.home(), n.dir);
        }
        n.distribution = to;
        n.start();
    }

    /** The distribution node {@code i} runs: the cluster's, or the one {@link #upgradeNode} gave it. */
    public EsDistribution distribution(int i) {
        return nodes.get(i).distribution;
    }

    /** Stops node {@code i} gracefully (SIGTERM, SIGKILL after a grace period), as an orderly shutdown would. */
    public void stopNode(int i) {
        nodes.get(i).stop();
    }

    /**
     * Sets the heap ({@code -Xms}/{@code -Xmx}, e.g. {@code 320m}) node {@code i} gets at its next {@link #restartNode}: a
     * node stopped and started again with less memory.
     */
    public void setNodeHeap(int i, String nodeHeap) throws IOException {
        nodes.get(i).writeHeap(nodeHeap);
    }

    /** The heap node {@code i} was (or will be) started with. */
    public String nodeHeap(int i) {
        return nodes.get(i).heap;
    }

    /** True while the process started for node {@code i} is alive (false after a kill, a stop or a crash). */
    public boolean isRunning(int i) {
        Process p = nodes.get(i).process;
        return p != null && p.isAlive();
    }

    /** The pid of node {@code i}'s server JVM, if it is running. */
    public Optional<Long> serverPid(int i) {
        return nodes.get(i).server().filter(ProcessHandle::isAlive).map(ProcessHandle::pid);
    }

    /**
     * Runs a full garbage collection in node {@code i} ({@code jcmd <pid> GC.run}, as the node's uid when root), so that
     * its used heap can be compared before and after a load; returns false when that was not possible.
     */
    public boolean fullGc(int i) throws IOException {
        return jcmd(i, "GC.run") != null;
    }

    /**
     * Runs a diagnostic command in node {@code i}'s JVM ({@code jcmd <pid> ...}, as the node's uid when root), e.g.
     * {@code JFR.start}; returns its output, or null when the node is not running or the command failed. Files it writes
     * must be in a directory the node's user can write, e.g. {@link #tmpDir(int)}.
     */
    public String jcmd(int i, String... command) throws IOException {
        Optional<Long> pid = serverPid(i);
        if (pid.isEmpty()) {
            return null;
        }
        List<String> cmd = new ArrayList<>();
        if (asRoot) {
            // the attach mechanism only accepts a client of the JVM's own uid
            cmd.addAll(List.of("setpriv", "--reuid=" + UNPRIVILEGED_UID, "--regid=" + UNPRIVILEGED_UID, "--clear-groups"));
        }
        cmd.addAll(List.of(distribution.javaHome().resolve("bin/jcmd").toString(), Long.toString(pid.get())));
        cmd.addAll(List.of(command));
        Processes.Result r = Processes.run(cmd, 120);
        return r.exitCode() == 0 ? r.output() : null;
    }

    /** Node {@code i}'s temporary directory, which its user can write. */
    public Path tmpDir(int i) {
        return nodes.get(i).dir.resolve("tmp");
    }

    /** Waits until the cluster has all its nodes and is green. */
    public void waitForGreen(Duration timeout) throws IOException {
        waitForStatus("green", timeout);
    }

    /** Waits until the cluster has all its nodes and at least {@code status} ({@code yellow} or {@code green}). */
    public void waitForStatus(String status, Duration timeout) throws IOException {
        long deadline = System.nanoTime() + timeout.toNanos();
        String last = "no answer yet";
        while (System.nanoTime() < deadline) {
            for (Node n : nodes) {
                n.checkStarting();
            }
            try {
                Request health = new Request("GET", "/_cluster/health");
                health.addParameter("wait_for_status", status);
                health.addParameter("wait_for_nodes", Integer.toString(nodes.size()));
                health.addParameter("timeout", "2s");
                Response r = client.performRequest(health);
                if (r.getStatusLine().getStatusCode() == 200) {
                    return;
                }
            } catch (ResponseException e) {
                last = e.getMessage();
            } catch (IOException e) {
                last = e.toString();
            }
            sleep(500);
        }
        throw new IllegalStateException("cluster " + name + " not " + status + " after " + timeout + ": " + last + "\nlog tail of node-0:\n"
            + Processes.tail(nodes.get(0).dir.resolve("logs/console.log"), 60));
    }

    /** Stops every node (SIGTERM, then SIGKILL after a grace period) and closes the client. */
    @Override
    public void close() {
        closeQuietly();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException | IllegalArgumentException ignored) {
            // JVM already shutting down, or the hook was never registered
        }
    }

    private synchronized void closeQuietly() {
        closeClient();
        for (Node n : nodes) {
            n.stop();
        }
    }

    private synchronized void closeClient() {
        for (RestClient c : extraClients) {
            try {
                c.close();
            } catch (IOException ignored) {
                // stopping or detaching anyway
            }
        }
        extraClients.clear();
        if (client != null) {
            try {
                client.close();
            } catch (IOException ignored) {
                // stopping or detaching anyway
            }
            client = null;
        }
    }

    private void chownForNodes(Path... paths) throws IOException {
        List<String> cmd = new ArrayList<>(List.of("chown", "-R", UNPRIVILEGED_UID + ":" + UNPRIVILEGED_UID));
        for (Path p : paths) {
            cmd.add(p.toString());
        }
        Processes.Result r = Processes.run(cmd, 120);
        if (r.exitCode() != 0) {
            throw new IllegalStateException("chown failed: " + r.output());
        }
    }

    /** As root the node runs as another uid, which must be able to enter every parent directory. */
    private void checkReachableByNodeUser(Path path) throws IOException {
        if (!asRoot) {
            return;
        }
        for (Path p = path.toAbsolutePath().getParent(); p != null; p = p.getParent()) {
            if (!Files.getPosixFilePermissions(p).contains(PosixFilePermission.OTHERS_EXECUTE)) {
                throw new IllegalStateException("the node runs as uid " + UNPRIVILEGED_UID + ", which cannot enter " + p
                    + ": clone the project under a world-traversable directory (e.g. /work or /tmp) or chmod o+x " + p);
            }
        }
    }

    private static void killLeftovers(Path clusterDir) throws IOException {
        if (!Files.isDirectory(clusterDir)) {
            return;
        }
        try (var files = Files.walk(clusterDir, 2)) {
            for (Path pidFile : files.filter(f -> f.getFileName().toString().equals("es.pid")).toList()) {
                try {
                    long pid = Long.parseLong(Files.readString(pidFile).trim());
                    ProcessHandle.of(pid).filter(ph -> ph.info().commandLine().orElse("").contains("org.elasticsearch"))
                        .ifPresent(ProcessHandle::destroyForcibly);
                } catch (NumberFormatException | IOException ignored) {
                    // not a live node of ours
                }
            }
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** One node: its own config, data, logs and tmp directories, sharing the installed ES home. */
    private final class Node {
        final String name;
        final Path dir;
        int httpPort;
        int transportPort;
        String heap = EsCluster.this.heap;
        /** What the node starts from: the cluster's distribution until a rolling upgrade replaces it. */
        volatile EsDistribution distribution = EsCluster.this.distribution;
        volatile Process process;

        Node(String name, Path dir) {
            this.name = name;
            this.dir = dir;
        }

        void writeHeap(String nodeHeap) throws IOException {
            Path opts = Files.createDirectories(config().resolve("jvm.options.d"));
            Files.writeString(opts.resolve("heap.options"), "-Xms" + nodeHeap + "\n-Xmx" + nodeHeap + "\n", StandardCharsets.UTF_8);
            heap = nodeHeap;
        }

        Path config() {
            return dir.resolve("config");
        }

        void configure() throws IOException {
            for (String sub : List.of("data", "logs", "tmp")) {
                Files.createDirectories(dir.resolve(sub));
            }
            copyDir(distribution.home().resolve("config"), config());
            Map<String, String> yml = new LinkedHashMap<>();
            yml.put("cluster.name", EsCluster.this.name);
            yml.put("node.name", name);
            yml.put("network.host", "127.0.0.1");
            yml.put("http.port", Integer.toString(httpPort));
            yml.put("transport.port", Integer.toString(transportPort));
            yml.put("path.data", dir.resolve("data").toString());
            yml.put("path.logs", dir.resolve("logs").toString());
            if (superUser == null) {
                yml.put("xpack.security.enabled", "false");
            } else {
                // HTTP Basic over plain HTTP on loopback, file realm users
                yml.put("xpack.security.enabled", "true");
                yml.put("xpack.security.http.ssl.enabled", "false");
                yml.put("xpack.security.transport.ssl.enabled", "false");
            }
            yml.put("cluster.routing.allocation.disk.threshold_enabled", "false");
            // tests clean up with wildcard deletes (DELETE /prefix-*)
            yml.put("action.destructive_requires_name", "false");
            if (nodes.size() == 1) {
                yml.put("discovery.type", "single-node");
            } else {
                yml.put("discovery.seed_hosts",
                    nodes.stream().map(n -> "\"127.0.0.1:" + n.transportPort + "\"").collect(Collectors.joining(", ", "[", "]")));
                yml.put("cluster.initial_master_nodes",
                    nodes.stream().map(n -> "\"" + n.name + "\"").collect(Collectors.joining(", ", "[", "]")));
            }
            yml.putAll(settings);
            StringBuilder sb = new StringBuilder("# written by the simhash test harness\n");
            yml.forEach((k, v) -> sb.append(k).append(": ").append(v).append('\n'));
            Files.writeString(config().resolve("elasticsearch.yml"), sb.toString(), StandardCharsets.UTF_8);
            writeHeap(heap);
            if (superUser != null) {
                Files.writeString(config().resolve("roles.yml"), rolesYml, StandardCharsets.UTF_8);
                for (Map.Entry<String, String[]> u : users.entrySet()) {
                    String[] pwAndRoles = u.getValue();
                    ProcessBuilder pb = new ProcessBuilder(distribution.home().resolve("bin/elasticsearch-users").toString(), "useradd",
                        u.getKey(), "-p", pwAndRoles[0], "-r", pwAndRoles[1]);
                    pb.environment().put("ES_PATH_CONF", config().toString());
                    pb.environment().put("ES_JAVA_HOME", distribution.javaHome().toString());
                    pb.environment().put("CLI_JAVA_OPTS", "-Djava.io.tmpdir=" + dir.resolve("tmp"));
                    Processes.Result r = Processes.run(pb, 120, TimeUnit.SECONDS);
                    if (r.exitCode() != 0) {
                        throw new IllegalStateException("elasticsearch-users useradd " + u.getKey() + " failed: " + r.output());
                    }
                }
            }
        }

        void start() throws IOException {
            Path tmp = dir.resolve("tmp");
            List<String> cmd = new ArrayList<>();
            if (detached) {
                // a session of its own: the hangup of the terminal (or ssh session) that started it must not stop it
                cmd.addAll(List.of("setsid", "--wait"));
            }
            if (asRoot) {
                cmd.addAll(List.of("setpriv", "--reuid=" + UNPRIVILEGED_UID, "--regid=" + UNPRIVILEGED_UID, "--clear-groups"));
            }
            cmd.addAll(List.of("env", "-i", "PATH=/usr/local/bin:/usr/bin:/bin", "HOME=" + tmp, "ES_TMPDIR=" + tmp,
                "CLI_JAVA_OPTS=-Djava.io.tmpdir=" + tmp, "ES_JAVA_HOME=" + distribution.javaHome(), "ES_PATH_CONF=" + config(),
                "LANG=C.UTF-8"));
            cmd.add(distribution.home().resolve("bin/elasticsearch").toString());
            if (detached) {
                // the launcher returns once the node is up; the server then belongs to no JVM of ours
                cmd.add("-d");
            }
            cmd.add("-p");
            cmd.add(pidFile().toString());
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("logs/console.log").toFile()));
            pb.environment().clear();
            process = pb.start();
        }

        Path pidFile() {
            return dir.resolve("es.pid");
        }

        /** Fails when the node can no longer come up: its process died (or a detached launcher failed). */
        void checkStarting() {
            if (process == null || process.isAlive()) {
                return;
            }
            int exit = process.exitValue();
            // a detached launcher exits 0 once the daemonized server has started, and that server is what must live on
            if (detached && exit == 0 && server().map(ProcessHandle::isAlive).orElse(false)) {
                return;
            }
            String what = detached && exit == 0 ? "was daemonized but its server process is gone" : "exited with code " + exit;
            throw new IllegalStateException(name + " " + what + " while starting; log tail:\n"
                + Processes.tail(dir.resolve("logs/console.log"), 60));
        }

        Optional<ProcessHandle> server() {
            try {
                if (!Files.exists(pidFile())) {
                    return Optional.empty();
                }
                return ProcessHandle.of(Long.parseLong(Files.readString(pidFile()).trim()));
            } catch (IOException | NumberFormatException e) {
                return Optional.empty();
            }
        }

        void kill() throws IOException {
            Optional<ProcessHandle> server = server();
            server.ifPresent(ProcessHandle::destroyForcibly);
            if (process != null) {
                process.destroyForcibly();
                waitFor(process.toHandle(), 30);
            }
            server.ifPresent(s -> waitFor(s, 30));
            Files.deleteIfExists(pidFile());
        }

        void stop() {
            Optional<ProcessHandle> server = server();
            server.ifPresent(ProcessHandle::destroy);
            if (process != null) {
                process.destroy();
            }
            boolean stopped = server.map(s -> waitFor(s, 60)).orElse(true) && (process == null || waitFor(process.toHandle(), 30));
            if (!stopped) {
                server.ifPresent(ProcessHandle::destroyForcibly);
                if (process != null) {
                    process.destroyForcibly();
                }
            }
            process = null;
        }

        private boolean waitFor(ProcessHandle h, int seconds) {
            try {
                h.onExit().get(seconds, TimeUnit.SECONDS);
                return true;
            } catch (Exception e) {
                return !h.isAlive();
            }
        }
    }

    private static void copyDir(Path from, Path to) throws IOException {
        try (var files = Files.walk(from)) {
            for (Path src : files.toList()) {
                Path dst = to.resolve(from.relativize(src).toString());
                if (Files.isDirectory(src)) {
                    Files.createDirectories(dst);
                } else {
                    Files.copy(src, dst);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Settings of a cluster to start. */
    public static final class Builder {
        private final EsDistribution distribution;
        private final Path dir;
        private String name = "simhash-it";
        private int nodeCount = 1;
        private String heap = "512m";
        private final Map<String, String> settings = new LinkedHashMap<>();
        private final Map<String, String[]> users = new LinkedHashMap<>();
        private final StringBuilder rolesYml = new StringBuilder();
        private String superUser;
        private boolean detached;

        private Builder(EsDistribution distribution, Path dir) {
            this.distribution = distribution;
            this.dir = dir;
        }

        public Builder name(String name) {
            this.name = name;
            return this;
        }

        public Builder nodes(int count) {
            if (count < 1) {
                throw new IllegalArgumentException("a cluster needs at least one node");
            }
            this.nodeCount = count;
            return this;
        }

        public Builder heap(String heap) {
            this.heap = heap;
            return this;
        }

        /** An extra elasticsearch.yml setting for every node (value written as YAML as-is). */
        public Builder setting(String key, String value) {
            settings.put(key, value);
            return this;
        }

        /**
         * Enables security (HTTP Basic on plain HTTP, loopback only) with a file-realm superuser that
         * {@link #client()} and {@link #rest()} use.
         */
        public Builder security(String superUserName, String password) {
            this.superUser = superUserName;
            return user(superUserName, password, "superuser");
        }

        /** A file-realm user with comma-separated roles (built-in or defined with {@link #role}). */
        public Builder user(String name, String password, String roles) {
            users.put(name, new String[] { password, roles });
            return this;
        }

        /** A role definition in roles.yml syntax, e.g. {@code "reader_a:\n  indices:\n    - names: ['a']\n      privileges: ['read']\n"}. */
        public Builder role(String yaml) {
            rolesYml.append(yaml).append('\n');
            return this;
        }

        /**
         * Starts the nodes daemonized ({@code bin/elasticsearch -d -p <pid file>}) so that they keep
         * running after this JVM exits: no shutdown hook is registered. {@link EsCluster#close()} still
         * stops them; {@link EsCluster#disconnect()} leaves them running.
         */
        public Builder detached(boolean detached) {
            this.detached = detached;
            return this;
        }

        public EsCluster build() {
            return new EsCluster(this);
        }
    }
}
