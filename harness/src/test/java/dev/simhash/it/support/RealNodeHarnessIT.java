package dev.simhash.it.support;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Checks of the real-node harness itself, not of the plugin: they fail for a harness bug (a node bound beyond loopback),
 * and are counted apart from the plugin's tests ("harness checks" in the test summary of ./run test).
 */
@ExtendWith(RealNodeExtension.class)
@Tag("smoke")
class RealNodeHarnessIT {

    @Test
    void nodeListensOnLoopbackOnly(EsCluster cluster, Rest rest) {
        Rest.Answer a = rest.get("/_nodes/http");
        assertEquals(200, a.status(), a.toString());
        String publish = a.body();
        assertTrue(publish.contains("\"publish_address\":\"" + cluster.httpAddress() + "\""), publish);
        assertFalse(publish.contains("0.0.0.0"), "node bound beyond loopback: " + publish);
    }

    @Test
    void nodePortsAreInTheConfiguredRange(EsCluster cluster, Rest rest) {
        // SIMHASH_PORTS (or -Dsimhash.ports) pins the nodes' ports to a range; without it any free port will do
        PortRange range = PortRange.configured();
        int http = Integer.parseInt(cluster.httpAddress().substring(cluster.httpAddress().lastIndexOf(':') + 1));
        String transport = rest.get("/_nodes/transport").body();
        Matcher m = Pattern.compile("\"publish_address\":\"127\\.0\\.0\\.1:(\\d+)\"").matcher(transport);
        assertTrue(m.find(), transport);
        int tcp = Integer.parseInt(m.group(1));
        assertTrue(range.contains(http) && range.contains(tcp), "ports " + http + " and " + tcp + " outside " + range);
        System.out.println("[RealNodeHarnessIT] node ports: http " + http + ", transport " + tcp + " (" + range + ")");
    }
}
