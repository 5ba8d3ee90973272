package io.meshcontrol.core.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.address.AddressPool;
import io.meshcontrol.core.model.DnsSettings;
import io.meshcontrol.core.netmap.context.MapDns;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.model.Role;
import io.meshcontrol.core.model.VipService;
import io.meshcontrol.core.testing.AuthKey;
import io.meshcontrol.core.testing.Machine;
import io.meshcontrol.core.testing.TestNetwork;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The state behind {@code /api/v2}: saved DNS, services' addresses, key expiry switched back on. */
class VendorApiStateTest {

    @TempDir
    Path folder;

    @Test
    void savedDnsOutlivesARestartAndTellsTheListenerButMagicDnsStaysTheConfigurations() {
        TestNetwork net = new TestNetwork(folder);
        List<StateChange.MapContextChanged> heard = new ArrayList<>();
        net.network.snapshots().subscribe(change -> {
            if (change instanceof StateChange.MapContextChanged context) {
                heard.add(context);
            }
        });
        DnsSettings saved = net.network.dns().current()
                .withNameservers(List.of(new DnsSettings.Resolver("1.1.1.1", true)))
                .withSplitDns(Map.of("Corp.Example.", List.of(new DnsSettings.Resolver("10.0.0.53", false))));
        net.network.dns().update(net.admin, current -> saved);
        assertEquals(1, heard.size(), "the map context follows the saved DNS");
        assertEquals(MapDns.of(saved, "", List.of()), heard.getFirst().context().dnsConfig());
        assertEquals(List.of("corp.example"), List.copyOf(saved.splitDns().keySet()), "domains kept normalised");

        DnsSettings changed = new DnsSettings(false, false, List.of(), Map.of(), List.of());
        MeshException refused = assertThrows(MeshException.class,
                () -> net.network.dns().update(net.admin, current -> changed));
        assertTrue(refused.getMessage().contains("magicDNS"));
        assertEquals(1, heard.size(), "a refused change is not heard");

        assertEquals(saved, net.reopened(folder).dns().current());
        assertThrows(MeshException.class, () -> new DnsSettings.Resolver("dns.example", false));
    }

    @Test
    void servicesAndNodesNeverShareAnAddress() {
        TestNetwork net = new TestNetwork(folder);
        VipService web = net.network.vipServices().put(net.admin,
                new VipService("svc:web", null, null, "", Map.of(), List.of("tcp:443"), List.of()), List.of());
        net.user("odin", Role.MEMBER);
        Node node = Machine.named("laptop").join(net.network, AuthKey.forUser("odin").create(net.network));
        assertNotEquals(web.ipv4(), node.ipv4());
        assertNotEquals(web.ipv6(), node.ipv6());
        VipService again = net.network.vipServices().put(net.admin,
                new VipService("svc:web", null, null, "now", Map.of(), List.of(), List.of()), web.addresses());
        assertEquals(web.addresses(), again.addresses());
    }

    @Test
    void keyExpirySwitchedBackOnUsesTheLifetimeInForce() {
        TestNetwork net = new TestNetwork(folder, new NetworkOptions("100.64.0.0/10", "fd7a:115c:a1e0::/48",
                AddressPool.Allocation.SEQUENTIAL, Duration.ofDays(90)));
        net.user("odin", Role.MEMBER);
        Node node = Machine.named("laptop").join(net.network, AuthKey.forUser("odin").create(net.network));
        assertNull(net.network.nodes().setKeyExpiryDisabled(net.admin, node.id(), true).keyExpiry());
        Node enabled = net.network.nodes().setKeyExpiryDisabled(net.admin, node.id(), false);
        assertEquals(net.clock.instant().plus(Duration.ofDays(90)), enabled.keyExpiry());
        assertEquals(enabled.keyExpiry(),
                net.network.nodes().setKeyExpiryDisabled(net.admin, node.id(), false).keyExpiry(),
                "an expiry in place stays");
        assertFalse(net.network.nodes().authorize(net.admin, node.id(), false).authorized());
        assertTrue(net.network.nodes().authorize(net.admin, node.id(), true).authorized());
    }

    @Test
    void keyExpirySwitchReadsBackAsAskedWhileKeysNeverExpire() {
        TestNetwork net = new TestNetwork(folder); // node.expiry 0s: no lifetime to count from
        net.user("odin", Role.MEMBER);
        Node node = Machine.named("laptop").join(net.network, AuthKey.forUser("odin").create(net.network));
        assertNull(node.keyExpiry());
        assertFalse(node.keyExpiryDisabled(), "a new node's switch is on, as with the vendor");
        Node disabled = net.network.nodes().setKeyExpiryDisabled(net.admin, node.id(), true);
        assertTrue(disabled.keyExpiryDisabled());
        Node enabled = net.network.nodes().setKeyExpiryDisabled(net.admin, node.id(), false);
        assertFalse(enabled.keyExpiryDisabled(), "stored as asked");
        assertNull(enabled.keyExpiry(), "still never: the network gives no lifetime");
        assertFalse(net.reopened(folder).nodes().get(net.admin, node.id()).keyExpiryDisabled(), "kept in the database");
        net.network.nodes().setKeyExpiryDisabled(net.admin, node.id(), true);
        net.network.settings().update(net.admin, new Settings.Change(null, null, 30, null));
        assertEquals(net.clock.instant().plus(Duration.ofDays(30)),
                net.network.nodes().setKeyExpiryDisabled(net.admin, node.id(), false).keyExpiry());
    }
}
