package io.meshcontrol.core.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.event.MeshEvent;
import io.meshcontrol.core.key.MachinePrivateKey;
import io.meshcontrol.core.key.MachinePublicKey;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.model.Role;
import io.meshcontrol.core.testing.AuthKey;
import io.meshcontrol.core.testing.Machine;
import io.meshcontrol.core.testing.TestNetwork;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RegistrationTest {

    @TempDir
    Path folder;
    TestNetwork net;
    final List<MeshEvent> events = new ArrayList<>();

    @BeforeEach
    void setUp() {
        net = new TestNetwork(folder);
        net.user("odin", Role.MEMBER);
        net.network.events().subscribe(events::add);
    }

    private String key(boolean reusable, boolean preauthorized, List<String> tags, String user) {
        AuthKey key = AuthKey.of(user, tags);
        if (reusable) {
            key.reusable();
        }
        if (preauthorized) {
            key.preauthorized();
        }
        return net.authKey(key);
    }

    private static Registrations.Request machine(MachinePublicKey machineKey, String hostname) {
        return Machine.named(hostname).machineKey(machineKey).request();
    }

    @Test
    void newNodeGetsAddressesANameAndTheKeysUser() {
        Registrations.Registered r = net.network.registrations().withAuthKey(
                machine(MachinePrivateKey.generate().publicKey(), "Laptop"), key(false, false, List.of(), "odin"));
        assertTrue(r.created());
        assertEquals("laptop", r.node().givenName());
        assertEquals("100.64.0.1", r.node().ipv4());
        assertEquals("fd7a:115c:a1e0::6440:1", r.node().ipv6());
        assertEquals("odin", r.user().name());
        assertTrue(r.node().authorized());
        assertTrue(r.node().stableId().endsWith("CNTRL"));
        assertTrue(events.getLast() instanceof MeshEvent.NodeCreated);
    }

    @Test
    void sameMachineKeepsIdentityAcrossReRegistrationAndKeyRotation() {
        MachinePublicKey machineKey = MachinePrivateKey.generate().publicKey();
        String reusable = key(true, false, List.of(), "odin");
        Node first = net.network.registrations().withAuthKey(machine(machineKey, "box"), reusable).node();
        net.network.registrations().withAuthKey(machine(MachinePrivateKey.generate().publicKey(), "other"), reusable);
        Registrations.Registered again = net.network.registrations().withAuthKey(machine(machineKey, "box"), reusable);
        assertFalse(again.created());
        assertEquals(first.id(), again.node().id());
        assertEquals(first.ipv4(), again.node().ipv4());
        assertEquals(first.ipv6(), again.node().ipv6());
        assertEquals(first.givenName(), again.node().givenName());
        assertFalse(first.nodeKey().equals(again.node().nodeKey()), "the new node key replaced the old one");
    }

    @Test
    void singleUseKeyWorksOnce() {
        String once = key(false, false, List.of(), "odin");
        net.network.registrations().withAuthKey(machine(MachinePrivateKey.generate().publicKey(), "a"), once);
        MeshException refused = assertThrows(MeshException.class,
                () -> net.network.registrations().withAuthKey(machine(MachinePrivateKey.generate().publicKey(), "b"), once));
        assertEquals("invalid auth key: the key was single-use and has been used", refused.getMessage());
    }

    @Test
    void revokedExpiredAndForeignKeysAreRefusedNamingWhy() {
        PreAuthKeys.Issued issued = net.network.preAuthKeys().create(net.admin,
                new PreAuthKeys.NewKey("odin", List.of(), true, false, false, "", Duration.ofHours(1)));
        net.clock.advance(Duration.ofHours(2));
        assertEquals("invalid auth key: the key has expired", assertThrows(MeshException.class,
                () -> net.network.registrations().withAuthKey(machine(MachinePrivateKey.generate().publicKey(), "a"),
                        issued.secret())).getMessage());
        String revoked = key(true, false, List.of(), "odin");
        long id = net.network.preAuthKeys().list(net.admin).getLast().key().id();
        net.network.preAuthKeys().revoke(net.admin, id);
        assertEquals("invalid auth key: the key was revoked", assertThrows(MeshException.class,
                () -> net.network.registrations().withAuthKey(machine(MachinePrivateKey.generate().publicKey(), "a"),
                        revoked)).getMessage());
        assertThrows(MeshException.class, () -> net.network.registrations().withAuthKey(
                machine(MachinePrivateKey.generate().publicKey(), "a"), "svckey-auth-nothing"));
    }

    @Test
    void revokedKeyStaysReadableAsInvalidUntilReaped() {
        key(true, false, List.of(), "odin");
        long id = net.network.preAuthKeys().list(net.admin).getFirst().key().id();
        net.network.preAuthKeys().revoke(net.admin, id);
        assertFalse(net.network.preAuthKeys().get(net.admin, id).key().isValid(net.clock.instant()));
        assertEquals(0, net.network.preAuthKeys().reap());
        net.clock.advance(PreAuthKeys.INVALID_RETENTION.plusMinutes(1));
        assertEquals(1, net.network.preAuthKeys().reap());
        assertThrows(MeshException.class, () -> net.network.preAuthKeys().get(net.admin, id));
    }

    @Test
    void deviceApprovalHoldsNodesWithoutAPreauthorizedKey() {
        net.network.settings().update(net.admin, new Settings.Change(true, null, null, null));
        Node held = net.network.registrations().withAuthKey(machine(MachinePrivateKey.generate().publicKey(), "a"),
                key(false, false, List.of(), "odin")).node();
        assertFalse(held.authorized());
        assertTrue(events.getLast() instanceof MeshEvent.NodeNeedsApproval);
        Node approved = net.network.nodes().approve(net.admin, held.id());
        assertTrue(approved.authorized());
        assertTrue(events.getLast() instanceof MeshEvent.NodeApproved);

        Node preauthorized = net.network.registrations().withAuthKey(
                machine(MachinePrivateKey.generate().publicKey(), "b"), key(false, true, List.of(), "odin")).node();
        assertTrue(preauthorized.authorized());
    }

    @Test
    void taggedKeyMakesATaggedNodeWithoutUser() {
        net.policy("{\"tagOwners\": {\"tag:server\": [\"autogroup:admin\"]}}");
        Registrations.Registered r = net.network.registrations().withAuthKey(
                machine(MachinePrivateKey.generate().publicKey(), "srv"), key(false, false, List.of("tag:server"), null));
        assertNull(r.node().userId());
        assertEquals(List.of("tag:server"), r.node().tags());
    }

    @Test
    void nodeKeyExpiryFollowsTheSettingThenTheConfiguration() {
        net.network.settings().update(net.admin, new Settings.Change(null, null, 30, null));
        Node node = net.network.registrations().withAuthKey(machine(MachinePrivateKey.generate().publicKey(), "a"),
                key(false, false, List.of(), "odin")).node();
        assertEquals(net.clock.instant().plus(Duration.ofDays(30)), node.keyExpiry());
    }

    @Test
    void nodeKeyExpiryComesFromNodeExpiryWhenTheSettingIsUnset() {
        TestNetwork other = new TestNetwork(folder.resolve("other"), new NetworkOptions("100.64.0.0/10",
                "fd7a:115c:a1e0::/48", io.meshcontrol.core.address.AddressPool.Allocation.SEQUENTIAL,
                Duration.ofHours(48)));
        Network withExpiry = other.network;
        other.user("odin", Role.MEMBER);
        String authKey = other.authKey(AuthKey.forUser("odin"));
        Node node = withExpiry.registrations().withAuthKey(machine(MachinePrivateKey.generate().publicKey(), "a"), authKey)
                .node();
        assertEquals(net.clock.instant().plus(Duration.ofHours(48)), node.keyExpiry());
        assertNull(net.network.registrations().withAuthKey(machine(MachinePrivateKey.generate().publicKey(), "b"),
                key(false, false, List.of(), "odin")).node().keyExpiry(), "zero means keys do not expire");
    }

    @Test
    void managementChangesArePublished() {
        net.policy("{\"tagOwners\": {\"tag:web\": [\"autogroup:admin\"]}}");
        Node node = net.network.registrations().withAuthKey(machine(MachinePrivateKey.generate().publicKey(), "a"),
                key(false, false, List.of(), "odin")).node();
        Node other = net.network.registrations().withAuthKey(machine(MachinePrivateKey.generate().publicKey(), "b"),
                key(false, false, List.of(), "odin")).node();
        assertEquals("renamed", net.network.nodes().rename(net.admin, node.id(), "renamed").givenName());
        assertEquals(MeshException.Reason.CONFLICT,
                assertThrows(MeshException.class, () -> net.network.nodes().rename(net.admin, other.id(), "renamed")).reason());
        assertTrue(net.network.nodes().expire(net.admin, node.id()).isKeyExpired(net.clock.instant()));
        assertTrue(events.getLast() instanceof MeshEvent.NodeKeyExpired);
        Node tagged = net.network.nodes().setTags(net.admin, node.id(), List.of("tag:web"));
        assertNull(tagged.userId(), "tagging hands the node to its tags");
        MeshException stillOwned = assertThrows(MeshException.class,
                () -> net.network.users().delete(net.admin, net.network.users().byName("odin").orElseThrow().id()));
        assertTrue(stillOwned.getMessage().contains("still owns 1 node"), stillOwned.getMessage());
        net.network.nodes().delete(net.admin, other.id());
        assertTrue(events.getLast() instanceof MeshEvent.NodeDeleted);
        net.network.users().delete(net.admin, net.network.users().byName("odin").orElseThrow().id());
    }
}
