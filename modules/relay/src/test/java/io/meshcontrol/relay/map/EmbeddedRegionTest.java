package io.meshcontrol.relay.map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.wire.DERPMap;
import io.meshcontrol.core.wire.DERPNode;
import io.meshcontrol.core.wire.DERPRegion;
import io.meshcontrol.core.wire.WireJson;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class EmbeddedRegionTest {

    private static DERPNode node(String url, boolean portZero, int bound, int stun) {
        return EmbeddedRegion.of(URI.create(url), portZero, bound, 999, "svc", "Embedded", stun, Optional.empty(),
                Optional.empty()).toWire().nodes().getFirst();
    }

    @Test
    void httpsWithoutPortLeavesDerpPortToTheDefault() {
        DERPNode node = node("https://mesh.example.com", false, 8443, 3478);
        assertEquals("mesh.example.com", node.hostName());
        assertEquals(0, node.derpPort());
        assertFalse(node.insecureForTests());
        assertEquals("999", node.name());
        assertEquals(3478, node.stunPort());
    }

    @Test
    void plainHttpIsInsecureAndSpellsOutPortEighty() {
        DERPNode node = node("http://mesh.example.com", false, 8080, 3478);
        assertEquals(80, node.derpPort());
        assertTrue(node.insecureForTests());
    }

    @Test
    void explicitUrlPortIsPublished() {
        assertEquals(8443, node("https://mesh.example.com:8443", false, 443, 3478).derpPort());
    }

    @Test
    void listenerOnPortZeroPublishesTheBoundPort() {
        assertEquals(40123, node("http://127.0.0.1:8080", true, 40123, 3478).derpPort());
    }

    @Test
    void stunOffIsPublishedAsMinusOne() {
        String json = WireJson.writeString(node("https://mesh.example.com", false, 443, DERPNode.STUN_DISABLED));
        assertTrue(json.contains("\"STUNPort\":-1"), json);
    }

    @Test
    void addingReplacesAFileRegionWithTheSameIdAndKeepsOthers() {
        DERPRegion other = new DERPRegion(900, "home", "Home", 0, 0, false, false, List.of());
        DERPRegion clash = new DERPRegion(999, "old", "Old", 0, 0, false, false, List.of());
        DERPMap merged = EmbeddedRegion.of(URI.create("https://m.example"), false, 443, 999, "svc", "Embedded", 3478,
                Optional.of("192.0.2.1"), Optional.empty()).addTo(new DERPMap(null, Map.of(900, other, 999, clash), true));
        assertEquals(other, merged.regions().get(900));
        assertEquals("svc", merged.regions().get(999).regionCode());
        assertEquals("192.0.2.1", merged.regions().get(999).nodes().getFirst().ipv4());
        assertTrue(merged.omitDefaultRegions());
    }
}
