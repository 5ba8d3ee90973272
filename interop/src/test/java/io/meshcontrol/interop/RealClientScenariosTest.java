package io.meshcontrol.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.api.MeshClient;
import io.meshcontrol.api.NodeView;
import io.meshcontrol.api.PreAuthKeyRequest;
import io.meshcontrol.api.SettingsView;
import io.meshcontrol.api.UserRequest;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The six scenarios with unmodified tailscaled and tailscale, for the newest and the oldest supported
 * release, against a real server; the vendor's derper is the relay (reached over plain HTTP on loopback).
 */
class RealClientScenariosTest {

    private static final Duration SOON = Duration.ofSeconds(30);
    /** The shortest the configuration allows; the test moves the server's clock on rather than waiting. */
    private static final Duration EPHEMERAL_TIMEOUT = Duration.ofSeconds(65);

    @RegisterExtension
    final TailscaleNodes nodes = new TailscaleNodes();

    @TempDir
    Path folder;

    private TestNetwork network;
    private MeshClient admin;
    private URI loginServer;

    static Stream<ClientVersion> versions() {
        return ClientVersions.all();
    }

    private void startServer() throws Exception {
        network = TestNetwork.start(folder, nodes, EPHEMERAL_TIMEOUT);
        admin = network.admin();
        loginServer = network.loginServer();
        admin.createUser(new UserRequest("alice", "Alice", "alice@example.com", "admin"));
        admin.setPolicy("""
                {
                  // alice may tag machines as web servers; only the ops group may use tag:server
                  "groups": {"group:ops": ["bob@example.com"]},
                  "tagOwners": {"tag:server": ["group:ops"], "tag:web": ["alice@example.com"]},
                }
                """);
    }

    @AfterEach
    void stop() throws Exception {
        if (network != null) {
            network.close();
        }
    }

    private String key(boolean ephemeral, boolean preauthorized) {
        return admin.createPreAuthKey(new PreAuthKeyRequest("alice", null, true, ephemeral, preauthorized, "test", null))
                .secret();
    }

    private TailscaleNode node(ClientVersion version, String name) {
        return network.node(version, name);
    }

    private TailscaleNode joined(ClientVersion version, String name, String authKey) {
        return network.joined(version, name, authKey);
    }

    private NodeView serverView(String name) {
        return network.view(name);
    }

    /** The login name {@code tailscale status} shows for the peer's owner (its {@code User} table). */
    private static String ownerLogin(NodeStatus status, PeerStatus peer) {
        String userId = peer.json().path("UserID").asString("");
        return status.json().path("User").path(userId).path("LoginName").asString("userid:" + userId);
    }

    private static Optional<PeerStatus> peer(NodeStatus status, String name) {
        return status.peerList().stream().filter(p -> p.dnsName().startsWith(name + ".")).findFirst();
    }

    @ParameterizedTest(name = "tailscale {0}")
    @MethodSource("versions")
    void joinedNodesSeeEachOtherWithNamesAndAddresses(ClientVersion version) throws Exception {
        startServer();
        String key = key(false, false);
        TailscaleNode a = joined(version, "a", key);
        TailscaleNode b = joined(version, "b", key);
        for (TailscaleNode[] pair : new TailscaleNode[][] {{a, b}, {b, a}}) {
            NodeView other = serverView(pair[1].name());
            NodeStatus status = pair[0].awaitStatus(pair[1].name() + " online with its name and addresses",
                    s -> peer(s, pair[1].name()).filter(PeerStatus::online).isPresent(), SOON);
            PeerStatus seen = peer(status, pair[1].name()).orElseThrow();
            assertEquals(pair[1].name() + ".mesh.test.", seen.dnsName());
            assertEquals(List.of(other.ipv4(), other.ipv6()), seen.tailscaleIps());
            assertTrue(status.isRunning());
        }
    }

    @ParameterizedTest(name = "tailscale {0}")
    @MethodSource("versions")
    void pingBetweenTwoNodes(ClientVersion version) throws Exception {
        startServer();
        String key = key(false, false);
        TailscaleNode a = joined(version, "a", key);
        joined(version, "b", key);
        a.awaitStatus("b online", s -> peer(s, "b").filter(PeerStatus::online).isPresent(), SOON);
        CliResult ping = a.ping("b");
        assertTrue(ping.ok() && ping.stdout().contains("pong from b"), ping.describe());
    }

    @ParameterizedTest(name = "tailscale {0}")
    @MethodSource("versions")
    void interactiveLoginIsCompletedWithSvcAuthRegister(ClientVersion version) throws Exception {
        startServer();
        TailscaleNode c = node(version, "c");
        try (InteractiveLogin login = c.upAsync(loginServer, "c")) {
            URI authUrl = login.awaitAuthUrl(SOON);
            String path = authUrl.getPath();
            assertTrue(path.startsWith("/register/"), authUrl.toString());
            String authId = path.substring("/register/".length());
            assertEquals(0, svc("auth", "register", "--user", "alice", "--auth-id", authId));
            login.await(SOON).requireOk();
        }
        assertTrue(c.awaitStatus("running", NodeStatus::isRunning, SOON).isRunning());
        assertEquals("alice", serverView("c").user());
        assertEquals("interactive", serverView("c").registerMethod());
    }

    @ParameterizedTest(name = "tailscale {0}")
    @MethodSource("versions")
    void renameTagDeleteAndLogoutReachThePeer(ClientVersion version) throws Exception {
        startServer();
        String key = key(false, false);
        TailscaleNode a = joined(version, "a", key);
        joined(version, "b", key);
        TailscaleNode c = joined(version, "c", key);
        a.awaitStatus("b and c", s -> peer(s, "b").isPresent() && peer(s, "c").isPresent(), SOON);

        admin.renameNode(serverView("b").id(), "bee");
        a.awaitStatus("b renamed to bee", s -> peer(s, "bee").isPresent() && peer(s, "b").isEmpty(), SOON);

        admin.tagNode(serverView("bee").id(), List.of("tag:web"));
        NodeStatus tagged = a.awaitStatus("bee tagged",
                s -> peer(s, "bee").map(p -> p.tags().equals(List.of("tag:web"))).orElse(false), SOON);
        assertEquals("tagged-devices", ownerLogin(tagged, peer(tagged, "bee").orElseThrow()),
                "the peer knows the tagged node's owner without reconnecting; owners known: " + tagged.json().path("User"));

        c.logout().requireOk();
        a.awaitStatus("c logged out (expired)", s -> peer(s, "c").map(p -> p.json().path("Expired").asBoolean(false))
                .orElse(true), SOON);

        admin.deleteNode(serverView("bee").id());
        a.awaitStatus("bee gone", s -> peer(s, "bee").isEmpty(), SOON);
    }

    @ParameterizedTest(name = "tailscale {0}")
    @MethodSource("versions")
    void advertisedTagsFollowTagOwners(ClientVersion version) throws Exception {
        startServer();
        String key = key(false, false);
        TailscaleNode refused = node(version, "srv");
        CliResult up = refused.up(loginServer, key, "srv", "--advertise-tags=tag:server");
        assertTrue(!up.ok() && up.stderr().contains("requested tags [tag:server] are invalid or not permitted"),
                up.describe());
        assertTrue(admin.nodes().isEmpty(), "nothing registered");

        TailscaleNode web = node(version, "web");
        web.up(loginServer, key, "web", "--advertise-tags=tag:web").requireOk();
        NodeView tagged = serverView("web");
        assertEquals(List.of("tag:web"), tagged.tags());
        assertEquals(null, tagged.user(), "a tagged node belongs to its tags");
    }

    @ParameterizedTest(name = "tailscale {0}")
    @MethodSource("versions")
    void deviceApprovalHoldsANodeUntilApproved(ClientVersion version) throws Exception {
        startServer();
        TailscaleNode a = joined(version, "a", key(false, false));
        admin.updateSettings(new SettingsView(true, null, null));
        TailscaleNode held = node(version, "held");
        try (InteractiveLogin up = held.upAsync(loginServer, "held", "--auth-key=" + key(false, false))) {
            held.awaitStatus("waiting for approval", s -> s.backendState() == BackendState.NeedsMachineAuth, SOON);
            assertTrue(peer(a.status(), "held").isEmpty(), "an unapproved node is not a peer");
            assertEquals(0, svc("nodes", "approve", "-i", "held"));
            held.awaitStatus("running after approval", NodeStatus::isRunning, SOON);
            up.await(SOON).requireOk();
            a.awaitStatus("held visible after approval", s -> peer(s, "held").isPresent(), SOON);
        }
    }

    @ParameterizedTest(name = "tailscale {0}")
    @MethodSource("versions")
    void ephemeralNodeDisappearsAfterItsTimeout(ClientVersion version) throws Exception {
        startServer();
        TailscaleNode a = joined(version, "a", key(false, false));
        TailscaleNode e = joined(version, "e", key(true, false));
        a.awaitStatus("e present", s -> peer(s, "e").isPresent(), SOON);
        e.stop();
        a.awaitStatus("e offline", s -> peer(s, "e").map(p -> !p.online()).orElse(true), SOON);
        network.clock().advance(EPHEMERAL_TIMEOUT.plusSeconds(5));
        a.awaitStatus("e removed after " + EPHEMERAL_TIMEOUT, s -> peer(s, "e").isEmpty(), SOON);
        assertTrue(admin.nodes().stream().noneMatch(n -> n.name().equals("e")));
    }

    @ParameterizedTest(name = "tailscale {0}")
    @MethodSource("versions")
    void restartedNodeKeepsItsAddressesAndName(ClientVersion version) throws Exception {
        startServer();
        TailscaleNode a = joined(version, "a", key(false, false));
        NodeStatus before = a.awaitStatus("running", NodeStatus::isRunning, SOON);
        a.restart();
        NodeStatus after = a.awaitStatus("running again", NodeStatus::isRunning, SOON);
        assertEquals(before.tailscaleIps(), after.tailscaleIps());
        assertEquals(before.self().dnsName(), after.self().dnsName());
        assertEquals(1, admin.nodes().size(), "the same node, not a second one");
    }

    /** Runs the real svc command line against the test server, through its local credential. */
    private int svc(String... args) throws Exception {
        return network.svc(args).exitCode();
    }
}
