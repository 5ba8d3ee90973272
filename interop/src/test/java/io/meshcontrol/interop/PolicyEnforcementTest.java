package io.meshcontrol.interop;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.api.MeshClient;
import io.meshcontrol.api.PreAuthKeyRequest;
import io.meshcontrol.api.UserRequest;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The policy decides who reaches whom, with real clients: a rule from A to B on one TCP port lets A open that
 * port on B (through A's userspace SOCKS proxy) and not another one; a node outside the rules is not even a
 * peer; a newly saved policy takes effect without restarting anything. A grant works as the acl does, and the
 * SSH policy and capabilities the policy gives reach the clients' network maps.
 */
class PolicyEnforcementTest {

    private static final Duration SOON = Duration.ofSeconds(30);

    @RegisterExtension
    final TailscaleNodes nodes = new TailscaleNodes();

    @TempDir
    Path folder;

    private TestNetwork network;
    private ServerSocket allowed;
    private ServerSocket other;

    static Stream<ClientVersion> versions() {
        return ClientVersions.all();
    }

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable closeable : new AutoCloseable[] {allowed, other, network}) {
            if (closeable != null) {
                closeable.close();
            }
        }
    }

    @ParameterizedTest(name = "tailscale {0}")
    @MethodSource("versions")
    void policyAllowsOnePortAndHidesNodesOutsideTheRules(ClientVersion version) throws Exception {
        network = TestNetwork.start(folder, nodes, Duration.ofMinutes(30));
        MeshClient admin = network.admin();
        admin.createUser(new UserRequest("alice", null, "alice@example.com", "admin"));
        String key = admin.createPreAuthKey(new PreAuthKeyRequest("alice", null, true, false, false, "", null)).secret();
        TailscaleNode a = network.joined(version, "a", key);
        network.joined(version, "b", key);
        network.joined(version, "c", key);
        String ipA = network.view("a").ipv4();
        String ipB = network.view("b").ipv4();
        allowed = listener();
        other = listener();

        admin.setPolicy(rule(ipA, ipB, allowed.getLocalPort()));
        a.awaitStatus("b visible, c not", s -> has(s, "b") && !has(s, "c"), SOON);
        assertTrue(eventually(() -> reaches(a, ipB, allowed.getLocalPort()), true), "A reaches B on the allowed port");
        // B enforces its own filter, which may reach it a moment after A's map: wait for it, as for a change below.
        assertTrue(eventually(() -> reaches(a, ipB, other.getLocalPort()), false), "A does not reach B on another port");

        admin.setPolicy(rule(ipA, ipB, other.getLocalPort()));
        assertTrue(eventually(() -> reaches(a, ipB, other.getLocalPort()), true), "a new policy opens the other port");
        assertTrue(eventually(() -> reaches(a, ipB, allowed.getLocalPort()), false), "and closes the first one");

        admin.setPolicy("{\"acls\": []}");
        a.awaitStatus("no peers left", s -> !has(s, "b") && !has(s, "c"), SOON);
    }

    @ParameterizedTest(name = "tailscale {0}")
    @MethodSource("versions")
    void grantsSshRulesAndNodeAttributesReachTheClients(ClientVersion version) throws Exception {
        network = TestNetwork.start(folder, nodes, Duration.ofMinutes(30));
        MeshClient admin = network.admin();
        admin.createUser(new UserRequest("alice", null, "alice@example.com", "member"));
        String key = admin.createPreAuthKey(new PreAuthKeyRequest("alice", null, true, false, false, "", null)).secret();
        TailscaleNode a = network.joined(version, "a", key);
        TailscaleNode b = network.joined(version, "b", key);
        String ipA = network.view("a").ipv4();
        String ipB = network.view("b").ipv4();
        allowed = listener();
        other = listener();

        admin.setPolicy("""
                {
                  "grants": [{"src": ["%s"], "dst": ["%s"], "ip": ["tcp:%d"]}],
                  "ssh": [{"action": "accept", "src": ["autogroup:member"], "dst": ["autogroup:self"],
                           "users": ["autogroup:nonroot"]}],
                  "nodeAttrs": [{"target": ["alice@example.com"], "attr": ["randomize-client-port"]}],
                }
                """.formatted(ipA, ipB, allowed.getLocalPort()));
        a.awaitStatus("b visible", s -> has(s, "b"), SOON);
        // the network allowed everything before this policy: wait until B enforces it
        assertTrue(eventually(() -> reaches(a, ipB, other.getLocalPort()), false), "the grant opens no other port");
        assertTrue(reaches(a, ipB, allowed.getLocalPort()), "but the granted one");

        assertTrue(eventually(() -> netmap(b).contains("\"randomize-client-port\""), true),
                "the node attribute is in B's own capabilities: " + netmap(b));
        String map = netmap(b);
        assertTrue(map.contains("\"SSHPolicy\"") && map.contains("\"nodeIP\": \"" + ipA + "\"")
                && map.contains("\"=\""), "B's SSH policy lets alice's machines in as any user but root: " + map);

        admin.setPolicy("""
                {"grants": [{"src": ["%s"], "dst": ["%s"], "ip": ["tcp:%d"]}]}
                """.formatted(ipA, ipB, allowed.getLocalPort()));
        assertTrue(eventually(() -> !netmap(b).contains("\"nodeIP\"") && !netmap(b).contains("randomize-client-port"),
                true), "a new policy takes the SSH rules and the attribute away: " + netmap(b));
        assertTrue(reaches(a, ipB, allowed.getLocalPort()), "the port stays open");
    }

    /** The client's own view of its network map ({@code tailscale debug netmap}), as JSON text. */
    private static String netmap(TailscaleNode node) {
        return node.cli("debug", "netmap").requireOk().stdout();
    }

    private static String rule(String from, String to, int port) {
        return """
                {
                  // only A to B, on one port
                  "acls": [{"action": "accept", "src": ["%s"], "dst": ["%s:%d"]}],
                }
                """.formatted(from, to, port);
    }

    private static boolean has(NodeStatus status, String name) {
        return status.peerList().stream().anyMatch(p -> p.dnsName().startsWith(name + "."));
    }

    /** A local service on this machine: B's userspace stack forwards what reaches B's address to it. */
    private static ServerSocket listener() throws IOException {
        ServerSocket socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread.ofVirtual().start(() -> {
            while (!socket.isClosed()) {
                try (Socket client = socket.accept(); OutputStream out = client.getOutputStream()) {
                    out.write("hello\n".getBytes(StandardCharsets.US_ASCII));
                } catch (IOException e) {
                    // closed, or the client went away
                }
            }
        });
        return socket;
    }

    /** Whether A, through its SOCKS5 proxy, gets the service's greeting from B's address and port. */
    private static boolean reaches(TailscaleNode from, String ip, int port) {
        try (Socket socket = new Socket(new Proxy(Proxy.Type.SOCKS, from.socksAddress()))) {
            socket.connect(InetSocketAddress.createUnresolved(ip, port), 3000);
            socket.setSoTimeout(3000);
            InputStream in = socket.getInputStream();
            return new String(in.readNBytes(6), StandardCharsets.US_ASCII).equals("hello\n");
        } catch (IOException e) {
            return false;
        }
    }

    private static boolean eventually(java.util.function.BooleanSupplier check, boolean wanted) throws InterruptedException {
        Instant deadline = Instant.now().plus(SOON);
        while (Instant.now().isBefore(deadline)) {
            if (check.getAsBoolean() == wanted) {
                return true;
            }
            Thread.sleep(500);
        }
        return false;
    }
}
