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
        return node(EmbeddedRegion.Endpoint.https(URI.create(url), portZero, bound), stun);
    }

    private static DERPNode node(EmbeddedRegion.Endpoint endpoint, int stun) {
        return new EmbeddedRegion(999, "svc", "Embedded", endpoint, stun, Optional.empty(), Optional.empty()).toWire()
                .nodes().getFirst();
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
    void aMeshedRegionListsEveryInstancesRelayInTheConfiguredOrder() {
        EmbeddedRegion region = new EmbeddedRegion(999, "svc", "Embedded",
                EmbeddedRegion.Endpoint.https(URI.create("https://b.example.com"), false, 443), 3478,
                Optional.of("192.0.2.2"), Optional.empty(), false,
                List.of(EmbeddedRegion.Endpoint.meshNode(URI.create("https://a.example.com")),
                        EmbeddedRegion.Endpoint.meshNode(URI.create("https://b.example.com:8443"))));
        List<DERPNode> nodes = region.toWire().nodes();
        assertEquals(List.of("999a", "999b"), nodes.stream().map(DERPNode::name).toList());
        assertEquals(List.of("a.example.com", "b.example.com"), nodes.stream().map(DERPNode::hostName).toList());
        assertEquals(List.of(0, 8443), nodes.stream().map(DERPNode::derpPort).toList());
        // One instance's own address would be wrong for the others: nodes are found by name.
        assertTrue(nodes.stream().allMatch(n -> (n.ipv4() == null || n.ipv4().isEmpty()) && n.stunPort() == 3478), nodes.toString());
    }

    @Test
    void pinnedTlsPortIsPublishedWithItsCertificatePinAndVerificationOn() {
        DERPNode node = node(EmbeddedRegion.Endpoint.pinned("192.0.2.7", 3340, "sha256-raw:00ff"), 3478);
        assertEquals("192.0.2.7", node.hostName());
        assertEquals(3340, node.derpPort());
        assertEquals("sha256-raw:00ff", node.certName());
        assertFalse(node.insecureForTests());
    }

    @Test
    void explicitUrlPortIsPublished() {
        assertEquals(8443, node("https://mesh.example.com:8443", false, 443, 3478).derpPort());
    }

    @Test
    void listenerOnPortZeroPublishesTheBoundPort() {
        assertEquals(40123, node("https://127.0.0.1:8443", true, 40123, 3478).derpPort());
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
        DERPMap merged = new EmbeddedRegion(999, "svc", "Embedded",
                EmbeddedRegion.Endpoint.https(URI.create("https://m.example"), false, 443), 3478,
                Optional.of("192.0.2.1"), Optional.empty()).addTo(new DERPMap(null, Map.of(900, other, 999, clash), true));
        assertEquals(other, merged.regions().get(900));
        assertEquals("svc", merged.regions().get(999).regionCode());
        assertEquals("192.0.2.1", merged.regions().get(999).nodes().getFirst().ipv4());
        assertTrue(merged.omitDefaultRegions());
    }
}
