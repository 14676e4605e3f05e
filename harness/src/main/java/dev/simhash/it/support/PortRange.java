package dev.simhash.it.support;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The ports the harness gives its nodes (HTTP and transport, for the tests and the demo): free ports the system picks
 * (the default), or free ports of the range that the environment variable {@code SIMHASH_PORTS} (or the system property
 * {@code simhash.ports}, which wins) names, e.g. {@code 9400-9499}, for a machine whose firewall or neighbours need the
 * nodes in a known range.
 */
public final class PortRange {

    /** The environment variable that names the range. */
    public static final String ENV = "SIMHASH_PORTS";
    /** The system property that names the range (before the environment variable). */
    public static final String PROPERTY = "simhash.ports";
    private static final PortRange ANY = new PortRange(0, 0, null);

    private final int low;
    private final int high;
    private final String source;

    private PortRange(int low, int high, String source) {
        this.low = low;
        this.high = high;
        this.source = source;
    }

    /** The range the system property or the environment names, or any free port when neither is set. */
    public static PortRange configured() {
        String value = System.getProperty(PROPERTY);
        if (value != null && !value.isBlank()) {
            return parse("-D" + PROPERTY, value);
        }
        value = System.getenv(ENV);
        return value == null || value.isBlank() ? ANY : parse(ENV, value);
    }

    /** Parses {@code LOW-HIGH} (inclusive, 1024..65535); {@code source} names where it came from in the error. */
    static PortRange parse(String source, String value) {
        String v = value.trim();
        int dash = v.indexOf('-');
        try {
            if (dash > 0) {
                int low = Integer.parseInt(v.substring(0, dash).trim());
                int high = Integer.parseInt(v.substring(dash + 1).trim());
                if (low >= 1024 && low <= high && high <= 65535) {
                    return new PortRange(low, high, source + "=" + v);
                }
            }
        } catch (NumberFormatException e) {
            // the message below
        }
        throw new IllegalArgumentException("[" + source + "] must be a port range LOW-HIGH within 1024-65535, e.g. 9400-9499, got ["
            + value + "]");
    }

    /** Whether the system picks the ports (no range configured). */
    public boolean any() {
        return source == null;
    }

    /** Whether {@code port} may be given out: always when no range is configured. */
    public boolean contains(int port) {
        return any() || (port >= low && port <= high);
    }

    @Override
    public String toString() {
        return any() ? "any free port" : source;
    }

    /**
     * {@code count} distinct ports that are free on 127.0.0.1 now. In a range, the search starts at a random port of it,
     * so that builds sharing the range rarely try the same ports; it fails when the range has fewer free ports.
     */
    public List<Integer> freePorts(int count) throws IOException {
        InetAddress loopback = InetAddress.getByName("127.0.0.1");
        List<ServerSocket> sockets = new ArrayList<>();
        try {
            if (any()) {
                for (int i = 0; i < count; i++) {
                    sockets.add(new ServerSocket(0, 1, loopback));
                }
            } else {
                int size = high - low + 1;
                int start = ThreadLocalRandom.current().nextInt(size);
                for (int i = 0; i < size && sockets.size() < count; i++) {
                    int port = low + (start + i) % size;
                    try {
                        sockets.add(new ServerSocket(port, 1, loopback));
                    } catch (IOException inUse) {
                        // taken: try the next one
                    }
                }
                if (sockets.size() < count) {
                    throw new IOException(source + ": " + count + " free ports needed, " + sockets.size() + " free in the range");
                }
            }
            List<Integer> ports = new ArrayList<>();
            for (ServerSocket s : sockets) {
                ports.add(s.getLocalPort());
            }
            return ports;
        } finally {
            for (ServerSocket s : sockets) {
                s.close();
            }
        }
    }
}
