package dev.simhash.it.support;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Checks of the real-node harness itself, not of the plugin: they fail for a harness bug (a node bound beyond loopback),
 * and are counted apart from the plugin's tests ("harness checks" in the test summary of ./run test).
 */
@ExtendWith(RealNodeExtension.class)
class RealNodeHarnessIT {

    @Test
    void nodeListensOnLoopbackOnly(EsCluster cluster, Rest rest) {
        Rest.Answer a = rest.get("/_nodes/http");
        assertEquals(200, a.status(), a.toString());
        String publish = a.body();
        assertTrue(publish.contains("\"publish_address\":\"" + cluster.httpAddress() + "\""), publish);
        assertFalse(publish.contains("0.0.0.0"), "node bound beyond loopback: " + publish);
    }
}
