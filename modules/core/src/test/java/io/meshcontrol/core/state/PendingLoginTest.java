package io.meshcontrol.core.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.MeshException;
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
}
