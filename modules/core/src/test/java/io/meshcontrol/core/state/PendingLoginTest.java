package io.meshcontrol.core.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.key.MachinePrivateKey;
import io.meshcontrol.core.key.MachinePublicKey;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.model.Role;
import io.meshcontrol.core.testing.Machine;
import io.meshcontrol.core.testing.TestNetwork;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PendingLoginTest {

    @TempDir
    Path folder;
    TestNetwork net;
    PendingLogins logins;

    @BeforeEach
    void setUp() {
        net = new TestNetwork(folder);
        net.user("odin", Role.MEMBER);
        logins = net.network.pendingLogins();
    }

    private static Registrations.Request request(MachinePublicKey machine) {
        return Machine.named("laptop").machineKey(machine).hostinfo("{}").request();
    }

    @Test
    void waitingMachineProceedsWhenAnAdminCompletesTheLogin() throws Exception {
        String authId = logins.start(request(MachinePrivateKey.generate().publicKey()), false);
        CompletableFuture<Optional<Registrations.Registered>> waiting = CompletableFuture.supplyAsync(() -> {
            try {
                return logins.await(authId, Duration.ofSeconds(30));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        Registrations.Registered done = logins.complete(net.admin, authId, "odin");
        assertEquals(done.node().id(), waiting.get().orElseThrow().node().id());
        assertEquals(Node.RegisterMethod.INTERACTIVE, done.node().registerMethod());
        assertEquals("odin", done.user().name());
        assertFalse(logins.isPending(authId), "a login completes once");
    }

    @Test
    void reLoginOfAKnownMachineKeepsItsIdentity() {
        MachinePublicKey machine = MachinePrivateKey.generate().publicKey();
        Node first = logins.complete(net.admin, logins.start(request(machine), false), "odin").node();
        Node second = logins.complete(net.admin, logins.start(request(machine), false), "odin").node();
        assertEquals(first.id(), second.id());
        assertEquals(first.ipv4(), second.ipv4());
    }

    @Test
    void interactiveLoginIsHeldByDeviceApproval() {
        net.network.settings().update(net.admin, new Settings.Change(true, null, null, null));
        Node node = logins.complete(net.admin, logins.start(request(MachinePrivateKey.generate().publicKey()), true), "odin").node();
        assertFalse(node.authorized(), "an interactive login is never pre-authorized");
        assertTrue(node.ephemeral());
    }

    @Test
    void unknownOrLapsedAuthIdIsRefused() {
        String authId = logins.start(request(MachinePrivateKey.generate().publicKey()), false);
        net.clock.advance(PendingLogins.LIFETIME);
        MeshException lapsed = assertThrows(MeshException.class, () -> logins.complete(net.admin, authId, "odin"));
        assertEquals(MeshException.Reason.NOT_FOUND, lapsed.reason());
        assertThrows(MeshException.class, () -> logins.complete(net.admin, "nope", "odin"));
        assertEquals(List.of(), net.network.nodes().list(net.admin));
    }

    @Test
    void anAdministratorGivesTagsAndApprovesInTheSameStep() {
        net.network.policies().set(net.admin, """
                {"tagOwners": {"tag:kiosk": ["odin@"], "tag:vault": []},
                 "acls": [{"action": "accept", "src": ["*"], "dst": ["*:*"]}]}""", null);
        net.network.settings().update(net.admin, new Settings.Change(true, null, null, null));
        String authId = logins.start(request(MachinePrivateKey.generate().publicKey()), false);
        assertEquals(List.of("tag:kiosk", "tag:vault"), logins.facts(net.admin, authId).applicableTags());

        Node node = logins.complete(net.admin, authId, new PendingLogins.Choice(null, List.of("tag:kiosk"), true))
                .node();
        assertEquals(List.of("tag:kiosk"), node.tags());
        assertEquals(null, node.userId());
        assertTrue(node.authorized(), "approved with the registration");
    }

    @Test
    void tagsTheRegistrarDoesNotOwnAreRefusedAndTheLoginWaitsOn() {
        net.network.policies().set(net.admin, """
                {"tagOwners": {"tag:kiosk": ["odin@"], "tag:vault": []},
                 "acls": [{"action": "accept", "src": ["*"], "dst": ["*:*"]}]}""", null);
        net.user("thor", Role.IT_ADMIN); // devices:core, but no policy_file and owns no tag
        Caller thor = net.callerFor("thor", List.of());
        String authId = logins.start(request(MachinePrivateKey.generate().publicKey()), false);
        assertEquals(List.of(), logins.facts(thor, authId).applicableTags());
        MeshException refused = assertThrows(MeshException.class, () -> logins.complete(thor, authId,
                new PendingLogins.Choice(null, List.of("tag:vault"), false)));
        assertEquals(MeshException.Reason.FORBIDDEN, refused.reason());
        assertThrows(MeshException.class, () -> logins.complete(net.admin, authId,
                new PendingLogins.Choice("odin", List.of("tag:kiosk"), false)), "a user or tags, not both");
        assertTrue(logins.isPending(authId));
        assertEquals(List.of(), net.network.nodes().list(net.admin));
    }

    @Test
    void aRefusedLoginWakesTheMachineWithTheRefusal() throws Exception {
        String authId = logins.start(request(MachinePrivateKey.generate().publicKey()), false);
        CompletableFuture<String> waiting = CompletableFuture.supplyAsync(() -> {
            try {
                logins.await(authId, Duration.ofSeconds(30));
                return "completed";
            } catch (MeshException e) {
                return e.getMessage();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        MeshException member = assertThrows(MeshException.class, () -> logins.reject(
                net.callerFor("odin", List.of()), authId));
        assertEquals(MeshException.Reason.FORBIDDEN, member.reason());
        logins.reject(net.admin, authId);
        assertTrue(waiting.get().contains("refused"), waiting.get());
        assertFalse(logins.isPending(authId));
        assertTrue(logins.refusal(authId).orElseThrow().contains("refused"), "told to a follow-up that comes later");
        assertThrows(MeshException.class, () -> logins.await(authId, Duration.ZERO), "a wait that starts later");
        assertEquals(MeshException.Reason.NOT_FOUND, assertThrows(MeshException.class,
                () -> logins.complete(net.admin, authId, "odin")).reason());
        assertEquals(MeshException.Reason.NOT_FOUND, assertThrows(MeshException.class,
                () -> logins.reject(net.admin, authId)).reason());
    }
}
