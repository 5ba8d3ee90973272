package io.meshcontrol.core.netmap;

import io.meshcontrol.core.netmap.context.MapContext;
import io.meshcontrol.core.netmap.context.ServiceHosting;
import io.meshcontrol.core.netmap.session.ChangeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.model.Role;
import io.meshcontrol.core.model.VipService;
import io.meshcontrol.core.net.IpPrefix;
import io.meshcontrol.core.routes.RouteTable;
import io.meshcontrol.core.state.Network;
import io.meshcontrol.core.state.Users;
import io.meshcontrol.core.testing.AuthKey;
import io.meshcontrol.core.testing.Machine;
import io.meshcontrol.core.testing.TestNetwork;
import io.meshcontrol.core.wire.DERPMap;
import io.meshcontrol.core.wire.DNSConfig;
import io.meshcontrol.core.wire.FilterRule;
import io.meshcontrol.core.wire.MapResponse;
import io.meshcontrol.core.wire.NetPortRange;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Services in the map: the tagged host serves them, its peers route their addresses to it, its filter admits them. */
class ServiceHostingTest {

    @TempDir
    Path folder;
    Network network;
    final Caller admin = Caller.localAdmin();
    Node host;
    Node laptop;
    Node other;
    VipService web;

    @BeforeEach
    void setUp() {
        network = new TestNetwork(folder).network;
        network.users().create(admin, new Users.NewUser("odin", "Odin", "odin@example.com", Role.MEMBER));
        String key = AuthKey.forUser("odin").reusable().create(network);
        network.policies().set(admin, """
                {"tagOwners": {"tag:web": ["odin@example.com"]},
                 "acls": [{"action": "accept", "src": ["odin@example.com"], "dst": ["tag:web:443"]}]}""", null);
        host = network.nodes().setTags(admin, Machine.named("host").join(network, key).id(), List.of("tag:web"));
        laptop = Machine.named("laptop").join(network, key);
        other = Machine.named("other").join(network, key);
        web = network.vipServices().put(admin, new VipService("svc:web", null, null, "", Map.of(), List.of("tcp:443"),
                List.of("tag:web")), List.of());
    }

    private MapInputs inputs(ServiceHosting hosting) {
        MapContext context = new MapContext("TtestCNTRL", "mesh.test", DNSConfig.builder().build(),
                new DERPMap(null, Map.of(), false)).withServices(hosting);
        return new MapInputs(network.snapshots().current(),
                AccessRules.compile(network.policies().policy(), network.snapshots().current()), RouteTable.EMPTY,
                context, Instant.now());
    }

    /** Whether a filter address names {@code address} (bare or as a single-address prefix). */
    private static boolean is(String ip, String address) {
        return ip.equals(address) || ip.startsWith(address + "/");
    }

    private ServiceHosting hosting() {
        return new ServiceHosting(network.vipServices().current());
    }

    @Test
    void theTaggedHostGetsTheServiceHostCapabilityWithTheServiceAddresses() {
        MapResponse map = new MapSessionState(host.id(), 142).initial(inputs(hosting()));
        String expected = "{\"svc:web\":[\"" + web.ipv4() + "\",\"" + web.ipv6() + "\"]}";
        assertEquals(expected, map.node().capMap().get(ServiceHosting.SERVICE_HOST).getFirst().json());
        MapResponse laptops = new MapSessionState(laptop.id(), 142).initial(inputs(hosting()));
        assertFalse(laptops.node().capMap().containsKey(ServiceHosting.SERVICE_HOST), "an untagged node hosts nothing");
    }

    @Test
    void aSuspendedHostHostsNothingUntilItIsUnsuspended() {
        Node suspended = network.nodes().suspend(admin, host.id());
        assertEquals(List.of(), hosting().hostedBy(suspended));
        assertEquals(List.of(web), hosting().hostedBy(network.nodes().unsuspend(admin, host.id())));
    }

    @Test
    void theHostsFilterAdmitsTheServiceAddressesOnThePortsItAdmitsForItself() {
        List<FilterRule> filter = new MapSessionState(host.id(), 142).initial(inputs(hosting())).packetFilter();
        List<NetPortRange> dsts = filter.stream().flatMap(rule -> rule.dstPorts().stream()).toList();
        assertTrue(dsts.stream().anyMatch(d -> is(d.ip(), host.ipv4()) && d.ports().first() == 443), dsts.toString());
        assertTrue(dsts.stream().anyMatch(d -> is(d.ip(), web.ipv4()) && d.ports().first() == 443
                && d.ports().last() == 443), dsts.toString());
        assertTrue(dsts.stream().anyMatch(d -> is(d.ip(), web.ipv6())), dsts.toString());
        List<String> sources = filter.stream().filter(rule -> rule.dstPorts().stream()
                .anyMatch(d -> is(d.ip(), web.ipv4()))).flatMap(rule -> rule.srcIps().stream()).toList();
        assertTrue(sources.stream().anyMatch(s -> is(s, laptop.ipv4())), "the policy's sources: " + sources);
    }

    @Test
    void peersRouteTheServiceAddressesToItsHostOnly() {
        MapResponse map = new MapSessionState(laptop.id(), 142).initial(inputs(hosting()));
        io.meshcontrol.core.wire.Node hostPeer = map.peers().stream().filter(p -> p.id() == host.id()).findFirst()
                .orElseThrow();
        assertTrue(hostPeer.allowedIps().containsAll(List.of(IpPrefix.parse(web.ipv4() + "/32"),
                IpPrefix.parse(web.ipv6() + "/128"))), hostPeer.allowedIps().toString());
        assertEquals(2, hostPeer.addresses().size(), "the service addresses are routed, not the host's own");
        map.peers().stream().filter(p -> p.id() != host.id()).forEach(peer ->
                assertFalse(peer.allowedIps().contains(IpPrefix.parse(web.ipv4() + "/32")), peer.toString()));
    }

    @Test
    void aDeletedServiceLeavesTheHostAndItsPeersWithTheNextMap() {
        MapSessionState hostState = new MapSessionState(host.id(), 142);
        hostState.initial(inputs(hosting()));
        MapSessionState laptopState = new MapSessionState(laptop.id(), 142);
        laptopState.initial(inputs(hosting()));
        network.vipServices().delete(admin, "svc:web");

        ChangeSet everything = new ChangeSet(Set.of(), Set.of(), true);
        MapResponse hostDelta = hostState.update(everything, inputs(hosting())).orElseThrow();
        assertFalse(hostDelta.node().capMap().containsKey(ServiceHosting.SERVICE_HOST));
        assertTrue(hostDelta.packetFilter().stream().flatMap(rule -> rule.dstPorts().stream())
                .noneMatch(d -> is(d.ip(), web.ipv4())));
        MapResponse laptopDelta = laptopState.update(everything, inputs(hosting())).orElseThrow();
        io.meshcontrol.core.wire.Node hostPeer = laptopDelta.peersChanged().stream()
                .filter(p -> p.id() == host.id()).findFirst().orElseThrow();
        assertFalse(hostPeer.allowedIps().contains(IpPrefix.parse(web.ipv4() + "/32")));
    }
}
