package io.meshcontrol.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.api.ApiJson;
import io.meshcontrol.api.MeshClient;
import io.meshcontrol.api.TailnetLockView;
import io.meshcontrol.api.PreAuthKeyRequest;
import io.meshcontrol.api.UserRequest;
import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.key.MachinePrivateKey;
import io.meshcontrol.core.key.NodePrivateKey;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.state.Registrations;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Tailnet lock with unmodified tailscaled: lock initialised on a machine with two signing keys, a machine that joins
 * afterwards locked out until a trusted key signs it, a signing key removed, lock disabled with the disablement secret;
 * what {@code tailscale lock status} says on each machine matches the server's status.
 */
class TailnetLockTest {

    private static final Duration SOON = Duration.ofSeconds(45);
    private static final Pattern OWN_KEY = Pattern.compile("tailnet-lock key: (tlpub:[0-9a-f]{64})");
    private static final Pattern TRUSTED_KEY = Pattern.compile("(?m)^\\t(tlpub:[0-9a-f]{64})\\t");
    private static final Pattern SECRET = Pattern.compile("disablement-secret:([0-9A-F]{64})");

    @RegisterExtension
    final TailscaleNodes nodes = new TailscaleNodes();

    @TempDir
    Path folder;

    private TestNetwork network;

    static Stream<ClientVersion> versions() {
        return ClientVersions.all();
    }

    @AfterEach
    void stop() throws Exception {
        if (network != null) {
            network.close();
        }
    }

    private static boolean sees(NodeStatus status, String name) {
        return status.peerList().stream().anyMatch(peer -> peer.dnsName().startsWith(name + "."));
    }

    private static String lockStatus(TailscaleNode node) {
        return node.cli("lock", "status").requireOk().stdout();
    }

    private static boolean lockEnabled(TailscaleNode node) {
        return lockStatus(node).toLowerCase().contains("tailnet lock is enabled");
    }

    private static String ownKey(TailscaleNode node) {
        Matcher m = OWN_KEY.matcher(lockStatus(node));
        assertTrue(m.find(), node.name() + " prints its tailnet-lock key");
        return m.group(1);
    }

    private static Set<String> trustedKeys(String lockStatus) {
        Matcher m = TRUSTED_KEY.matcher(lockStatus);
        Set<String> keys = new java.util.TreeSet<>();
        while (m.find()) {
            keys.add(m.group(1));
        }
        return keys;
    }

    /** What {@code svc lock status -o json} says. */
    private TailnetLockView serverStatus() {
        try {
            return ApiJson.mapper(false).readValue(network.svc("lock", "status", "-o", "json").out(),
                    TailnetLockView.class);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static Set<String> texts(List<TailnetLockView.TrustedKey> keys) {
        return keys.stream().map(TailnetLockView.TrustedKey::key)
                .collect(Collectors.toCollection(java.util.TreeSet::new));
    }

    /** The {@code tailnetLockError} of the device named {@code name} in {@code /api/v2}. */
    private String deviceLockError(String name) throws Exception {
        var answer = network.server().request("GET", "/api/v2/tailnet/-/devices", network.server().localToken(), null);
        assertEquals(200, answer.statusCode(), answer.body());
        for (var device : ApiJson.mapper(false).readTree(answer.body()).get("devices")) {
            if (device.get("name").asString().startsWith(name + ".")) {
                return device.get("tailnetLockError").asString();
            }
        }
        throw new AssertionError("no device " + name + " in " + answer.body());
    }

    private static void await(String what, java.util.function.BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + SOON.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(what + " not reached within " + SOON.toSeconds() + "s");
            }
            Thread.sleep(250);
        }
    }

    @ParameterizedTest(name = "tailscale {0}")
    @MethodSource("versions")
    void lockedOutUntilSignedThenKeyRemovedThenDisabled(ClientVersion version) throws Exception {
        network = TestNetwork.withRestartableServer(folder, nodes);
        MeshClient admin = network.admin();
        admin.createUser(new UserRequest("alice", "Alice", "alice@example.com", "admin"));
        String key = admin.createPreAuthKey(new PreAuthKeyRequest("alice", null, true, false, false, "test", null))
                .secret();
        TailscaleNode a = network.joined(version, "a", key);
        TailscaleNode b = network.joined(version, "b", key);
        a.awaitStatus("b listed", s -> sees(s, "b"), SOON);
        String keyA = ownKey(a);
        String keyB = ownKey(b);

        // Lock on, trusting a's and b's keys; a signs every node there is (a and b).
        String init = a.cli("lock", "init", "--confirm", "--gen-disablements", "1", keyA, keyB).requireOk().stdout();
        Matcher secret = SECRET.matcher(init);
        assertTrue(secret.find(), "init prints a disablement secret: " + init);
        await("lock on everywhere", () -> lockEnabled(a) && lockEnabled(b));
        TailnetLockView server = serverStatus();
        assertTrue(server.enabled());
        assertEquals(Set.of(keyA, keyB), texts(server.trustedKeys()));
        assertEquals(List.of(), server.lockedOut());
        assertEquals(Set.of(keyA, keyB), trustedKeys(lockStatus(a)));
        assertEquals(Set.of(keyA, keyB), trustedKeys(lockStatus(b)));
        a.awaitStatus("b still listed", s -> sees(s, "b"), SOON);
        assertTrue(a.ping("b").ok(), "signed peers reach each other");

        // c joins unsigned: locked out, on the server and on every peer.
        TailscaleNode c = network.joined(version, "c", key);
        await("c locked out on the server", () -> serverStatus().lockedOut().stream()
                .anyMatch(n -> n.name().equals("c")));
        TailnetLockView.LockedOut lockedC = serverStatus().lockedOut().getFirst();
        assertEquals("tailscale lock sign " + lockedC.nodeKey(), lockedC.signCommand());
        assertTrue(network.svc("nodes", "list").out().contains("locked out by tailnet lock: " + lockedC.signCommand()),
                "svc nodes list shows c locked out, with the command that signs it");
        assertTrue(deviceLockError("c").contains(lockedC.signCommand()), "/api/v2 devices say why c is locked out");
        assertEquals("", deviceLockError("a"));
        await("c on a's locked-out list", () -> lockStatus(a).contains("locked out"));
        assertFalse(sees(a.status(), "c"), "a drops the unsigned c");
        assertFalse(sees(b.status(), "c"), "b drops the unsigned c");
        assertFalse(c.ping("a", "--c=2").ok(), "c cannot reach a");

        // b signs c: every peer accepts it.
        b.cli("lock", "sign", lockedC.nodeKey()).requireOk();
        assertEquals(List.of(), serverStatus().lockedOut());
        assertEquals("", deviceLockError("c"));
        a.awaitStatus("c accepted by a", s -> sees(s, "c"), SOON);
        b.awaitStatus("c accepted by b", s -> sees(s, "c"), SOON);
        assertTrue(c.ping("a").ok(), "c reaches a once signed");
        assertTrue(c.ping("b").ok(), "c reaches b once signed");

        // The server restarts: the log, the head, the keys and the signatures are all still there.
        String head = serverStatus().head();
        network.restartServer();
        assertEquals(head, serverStatus().head());
        assertEquals(Set.of(keyA, keyB), texts(serverStatus().trustedKeys()));
        assertEquals(List.of(), serverStatus().lockedOut());
        c.awaitStatus("c reconnected and still sees a", s -> s.isRunning() && sees(s, "a"), SOON);
        assertTrue(c.ping("b").ok(), "c still reaches b after the restart");

        // A machine the server registers by itself, unsigned: locked clients drop it.
        Node ghost = network.server().network.registrations().forUserWithoutClient(Caller.localAdmin(),
                new Registrations.Request(MachinePrivateKey.generate().publicKey(),
                        NodePrivateKey.generate().publicKey(), "ghost", "{\"Hostname\":\"ghost\"}"), "alice").node();
        assertTrue(serverStatus().lockedOut().stream().anyMatch(n -> n.id() == ghost.id()));
        await("a lists ghost as locked out", () -> lockStatus(a).contains("ghost"));
        assertFalse(sees(a.status(), "ghost"), "a drops the unsigned ghost");
        assertFalse(a.ping(ghost.ipv4(), "--c=2").ok(), "a cannot reach the ghost's address");

        // b's key removed on a: the client asks which signatures the removal affects (c's, made by b's key) and
        // signs them again with its own, so c stays in.
        a.cli("lock", "remove", keyB).requireOk();
        assertEquals(Set.of(keyA), texts(serverStatus().trustedKeys()));
        assertEquals(List.of("ghost"), serverStatus().lockedOut().stream().map(TailnetLockView.LockedOut::name).toList(),
                "c was signed again by a's key; only the ghost stays out");
        for (TailscaleNode node : List.of(a, b, c)) {
            await(node.name() + " trusts only a's key", () -> trustedKeys(lockStatus(node)).equals(Set.of(keyA)));
        }
        a.awaitStatus("c still accepted by a", s -> sees(s, "c"), SOON);
        b.awaitStatus("c still accepted by b", s -> sees(s, "c"), SOON);
        assertTrue(b.ping("c").ok(), "c, signed again, still reaches b");

        // Disabled with the disablement secret, from b (no longer a signing node).
        b.cli("lock", "disable", "disablement-secret:" + secret.group(1)).requireOk();
        assertFalse(serverStatus().enabled());
        List<TailscaleNode> all = new ArrayList<>(List.of(a, b, c));
        for (TailscaleNode node : all) {
            await(node.name() + " has lock off", () -> !lockEnabled(node));
        }
    }
}
