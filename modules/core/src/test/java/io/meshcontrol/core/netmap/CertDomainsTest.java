package io.meshcontrol.core.netmap;

import io.meshcontrol.core.netmap.context.MapContext;
import io.meshcontrol.core.netmap.session.ChangeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.model.Role;
import io.meshcontrol.core.policy.Policy;
import io.meshcontrol.core.routes.RouteTable;
import io.meshcontrol.core.state.Network;
import io.meshcontrol.core.state.Users;
import io.meshcontrol.core.testing.AuthKey;
import io.meshcontrol.core.testing.Machine;
import io.meshcontrol.core.testing.TestNetwork;
import io.meshcontrol.core.wire.DERPMap;
import io.meshcontrol.core.wire.DNSConfig;
import io.meshcontrol.core.wire.MapResponse;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * With {@code https_certificates} on, each node's map offers exactly its own MagicDNS name as {@code CertDomains}
 * (what {@code tailscale cert} checks before it asks a CA) and the {@code https} capability; and the same rule
 * decides which challenge records {@code /machine/set-dns} lets it publish.
 */
class CertDomainsTest {

    @TempDir
    Path folder;
    Network network;
    final Caller admin = Caller.localAdmin();
    final MapContext magicDns = new MapContext("TtestCNTRL", "mesh.test", DNSConfig.builder()
            .domains(List.of("mesh.test")).proxied(true).build(), new DERPMap(null, Map.of(), false));
    Node a;
    Node b;

    @BeforeEach
    void setUp() {
        network = new TestNetwork(folder).network;
        network.users().create(admin, new Users.NewUser("odin", "Odin", "odin@example.com", Role.MEMBER));
        String key = AuthKey.forUser("odin").reusable().create(network);
        a = Machine.named("a").join(network, key);
        b = Machine.named("b").join(network, key);
    }

    private MapInputs inputs(MapContext context) {
        return new MapInputs(network.snapshots().current(),
                AccessRules.compile(Policy.EMPTY, network.snapshots().current()), RouteTable.EMPTY, context,
                Instant.now());
    }

    @Test
    void aNodeIsOfferedItsOwnNameAndTheHttpsCapability() {
        MapResponse first = new MapSessionState(a.id(), 142).initial(inputs(magicDns.withHttpsCertificates(true)));
        assertEquals(List.of("a.mesh.test"), first.dnsConfig().certDomains());
        assertTrue(first.node().capMap().containsKey("https"), first.node().capMap().toString());
        assertEquals(List.of("mesh.test"), first.dnsConfig().domains(), "the rest of the DNS settings stay");
    }

    @Test
    void noNamesWhileTurnedOffOrWithoutMagicDns() {
        MapResponse off = new MapSessionState(a.id(), 142).initial(inputs(magicDns));
        assertEquals(List.of(), off.dnsConfig().certDomains());
        assertFalse(off.node().capMap().containsKey("https"));

        MapContext noMagicDns = new MapContext("TtestCNTRL", "mesh.test", DNSConfig.builder().build(),
                new DERPMap(null, Map.of(), false)).withHttpsCertificates(true);
        MapResponse withoutNames = new MapSessionState(a.id(), 142).initial(inputs(noMagicDns));
        assertEquals(List.of(), withoutNames.dnsConfig().certDomains());
        assertFalse(withoutNames.node().capMap().containsKey("https"));
    }

    @Test
    void aRenamedNodeIsOfferedItsNewName() {
        MapContext context = magicDns.withHttpsCertificates(true);
        MapSessionState state = new MapSessionState(a.id(), 142);
        state.initial(inputs(context));
        Node renamed = network.nodes().rename(admin, a.id(), "laptop");
        Optional<MapResponse> delta = state.update(new ChangeSet(Set.of(renamed.id()), Set.of(), false),
                inputs(context));
        assertEquals(List.of("laptop.mesh.test"), delta.orElseThrow().dnsConfig().certDomains());
    }

    @Test
    void aSuspendedNodeLosesItsName() {
        MapContext context = magicDns.withHttpsCertificates(true);
        MapSessionState state = new MapSessionState(a.id(), 142);
        state.initial(inputs(context));
        Node suspended = network.nodes().suspend(admin, a.id());
        MapResponse delta = state.update(new ChangeSet(Set.of(suspended.id()), Set.of(), false), inputs(context))
                .orElseThrow();
        assertEquals(List.of(), delta.dnsConfig().certDomains());
        assertEquals(Optional.empty(), CertDomains.challengedName("_acme-challenge.a.mesh.test", suspended, context));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource({
            "_acme-challenge.a.mesh.test, a.mesh.test",
            "_ACME-Challenge.A.Mesh.Test., a.mesh.test",
            "a.mesh.test, ''",
            "_acme-challenge.b.mesh.test, ''",
            "_acme-challenge.x.a.mesh.test, ''",
            "_acme-challenge.a.mesh.test.evil.example, ''",
            "_acme-challenge.mesh.test, ''",
    })
    void onlyTheNodesOwnChallengeRecordNamesOneOfItsNames(String record, String certName) {
        Node self = network.snapshots().current().node(a.id()).orElseThrow();
        assertEquals(certName.isEmpty() ? Optional.empty() : Optional.of(certName),
                CertDomains.challengedName(record, self, magicDns.withHttpsCertificates(true)));
    }

    @Test
    void noChallengeRecordWhileTurnedOff() {
        assertEquals(Optional.empty(), CertDomains.challengedName("_acme-challenge.a.mesh.test", a, magicDns));
    }
}
