package dev.simhash.it;

import dev.simhash.it.support.RealNodeExtension;
import dev.simhash.it.support.RealNodes;
import dev.simhash.it.support.Rest;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The plugin zip, installed with elasticsearch-plugin into the real distribution, loads in a running node. */
@ExtendWith(RealNodeExtension.class)
@Tag("smoke")
class PluginSmokeIT {

    @Test
    void catPluginsListsSimhash(Rest rest) {
        Rest.Answer a = rest.get("/_cat/plugins?h=component,version&format=json");
        assertEquals(200, a.status(), a.toString());
        assertTrue(a.body().contains("\"component\":\"simhash\""), "simhash not in _cat/plugins: " + a.body());
    }

    @Test
    void nodeInfoShowsThePluginWithItsClassAndVersion(Rest rest) {
        Rest.Answer a = rest.get("/_nodes/plugins");
        assertEquals(200, a.status(), a.toString());
        Map<String, Object> nodes = a.at("nodes");
        assertEquals(1, nodes.size());
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> plugins = (List<Map<String, Object>>) ((Map<String, Object>) nodes.values().iterator().next()).get("plugins");
        Map<String, Object> ours = plugins.stream().filter(p -> "simhash".equals(p.get("name"))).findFirst()
            .orElseThrow(() -> new AssertionError("simhash missing from " + plugins));
        assertEquals("dev.simhash.SimHashPlugin", ours.get("classname"));
        assertEquals(RealNodes.esVersion(), ours.get("elasticsearch_version"));
    }
}
