package io.meshcontrol.core.netmap.context;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.wire.DERPMap;
import io.meshcontrol.core.wire.DERPNode;
import io.meshcontrol.core.wire.DERPRegion;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MapContextTest {

    private static final DERPNode PINNED = DERPNode.builder().name("999").regionId(999).hostName("192.0.2.7")
            .certName("sha256-raw:00ff").derpPort(3340).stunPort(3478).build();
    private static final DERPNode OTHER = DERPNode.builder().name("1a").regionId(1).hostName("relay.example.com")
            .build();
    private static final MapContext CONTEXT = new MapContext("t", "mesh.test", null, new DERPMap(null, Map.of(
            999, new DERPRegion(999, "svc", "Embedded", 0, 0, false, false, List.of(PINNED)),
            1, new DERPRegion(1, "one", "One", 0, 0, false, false, List.of(OTHER))), false));

    @Test
    void clientsThatPinGetThePinnedNode() {
        assertSame(CONTEXT.derpMap(), CONTEXT.derpMapFor(MapContext.PINNED_RELAY_CERTIFICATES));
    }

    @Test
    void olderClientsGetThePinnedNodeWithoutVerificationAndTheRestUnchanged() {
        DERPMap map = CONTEXT.derpMapFor(113); // Tailscale 1.80
        DERPNode node = map.regions().get(999).nodes().getFirst();
        assertEquals("", node.certName(), "a pin they would take for a host name");
        assertTrue(node.insecureForTests());
        assertEquals(3340, node.derpPort());
        assertEquals("192.0.2.7", node.hostName());
        assertEquals(OTHER, map.regions().get(1).nodes().getFirst());
        assertFalse(map.regions().get(1).nodes().getFirst().insecureForTests());
    }
}
