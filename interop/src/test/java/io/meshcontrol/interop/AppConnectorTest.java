package io.meshcontrol.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.meshcontrol.api.AppRequest;
import io.meshcontrol.api.AppView;
import io.meshcontrol.api.MeshClient;
import io.meshcontrol.api.PreAuthKeyRequest;
import io.meshcontrol.api.UserRequest;
import io.meshcontrol.core.testing.Await;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Inet4Address;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Proxy;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * An app with a real connector: a tagged node running {@code --advertise-connector} gets the app through its
 * capability; a peer asking for a name of the app's domain gets it answered by the connector (split DNS to the
 * connector's PeerAPI), which learns the address; the server approves the learned /32 by itself, and the peer reaches
 * a service at that address through the connector.
 *
 * <p>The connector resolves with its own {@code /etc/resolv.conf} (a mount namespace of its own: {@code unshare},
 * which needs root) pointing at {@link AppDomainResolver} on port 53 of an otherwise unused loopback address. The
 * service listens on the machine's own non-loopback address; that the connection went through the connector is read
 * from the connector's log ({@code --verbose=2} shows its forwarded connections), since on one machine the peer could
 * also reach that address directly.
 */
class AppConnectorTest {

    private static final Duration SOON = Duration.ofSeconds(45);
    private static final String NAME = "service.apps.test";
    private static final InetSocketAddress RESOLVER = new InetSocketAddress("127.77.14.53", 53);

    /** The policy docs/apps.md sets up: members reach the internet (through connectors) and the connectors. */
    private static final String DOCUMENTED_POLICY = """
            {"tagOwners": {"tag:connector": ["alice@example.com"]},
             "acls": [
               {"action": "accept", "src": ["autogroup:member"], "dst": ["autogroup:internet:*"]},
               {"action": "accept", "src": ["autogroup:member"], "dst": ["tag:connector:*"]}
             ]}
            """;

    @RegisterExtension
    final TailscaleNodes nodes = new TailscaleNodes();

    @TempDir
    Path folder;

    private TestNetwork network;

    @AfterEach
    void stop() throws Exception {
        if (network != null) {
            network.close();
        }
    }

    @ParameterizedTest(name = "tailscale {0}")
    @MethodSource("io.meshcontrol.interop.ClientVersions#all")
    void aPeerReachesAServiceThroughTheConnectorThatLearnedItsAddress(ClientVersion version) throws Exception {
        assumeTrue(ThisHost.isRoot(), "the connector's own resolv.conf needs a mount namespace (root)");
        Inet4Address host = hostAddress().orElse(null);
        assumeTrue(host != null, "no non-loopback IPv4 address to put the service on");
        try (ServerSocket service = new ServerSocket(0, 50, host);
                AppDomainResolver resolver = AppDomainResolver.start(RESOLVER, NAME, host)) {
            Thread.ofVirtual().start(() -> serve(service));
            // Clients before 1.102 in userspace mode apply split DNS only beside default resolvers of their own: one
            // that answers nothing, so that the app's name is answered through the connector or not at all.
            network = TestNetwork.start(folder, nodes, Duration.ofMinutes(30), Map.of(
                    "dns.override_local_dns", "true", "dns.nameservers.global", "127.77.14.54"));
            MeshClient admin = network.admin();
            admin.createUser(new UserRequest("alice", null, "alice@example.com", "admin"));
            String key = admin.createPreAuthKey(new PreAuthKeyRequest("alice", null, true, false, false, "", null))
                    .secret();
            admin.setPolicy(DOCUMENTED_POLICY);
            network.svc("apps", "create", "--name", "internal", "--domain", "*.apps.test", "--connector",
                    "tag:connector");

            Path resolvConf = Files.writeString(folder.resolve("resolv.conf"),
                    "nameserver " + RESOLVER.getHostString() + "\n");
            TailscaleNode connector = network.builder(version, "connector")
                    .launchedBy("unshare", "--mount", "--propagation", "private", "sh", "-c",
                            "mount --bind \"$0\" /etc/resolv.conf && exec \"$@\"", resolvConf.toString())
                    .daemonArgs("--verbose=2")
                    .start();
            connector.up(network.loginServer(), key, "connector", "--advertise-tags=tag:connector",
                    "--advertise-connector").requireOk();
            TailscaleNode peer = network.node(version, "peer");
            peer.up(network.loginServer(), key, "peer", "--accept-routes").requireOk();

            connector.awaitStatus("the app capability", s -> s.self().json().path("CapMap")
                    .has("tailscale.com/app-connectors"), SOON);
            await("the server lists the connector for the app", () -> app(admin).connectorNodes().size() == 1);

            String answered = awaitAnswer(peer, host);
            assertTrue(answered.contains(host.getHostAddress()), answered);

            String learned = host.getHostAddress() + "/32";
            await("the learned " + learned + " approved", () -> network.view("connector").routes().approved()
                    .contains(learned));
            assertEquals(1, app(admin).connectorNodes().getFirst().learnedRoutes());
            peer.awaitStatus("the connector serving " + learned, s -> s.peer("connector")
                    .map(p -> PeerStatus.texts(p.json(), "PrimaryRoutes").contains(learned)).orElse(false), SOON);

            assertEquals("behind the connector", fetch(peer, host, service.getLocalPort()));
            String forwarded = "forwarder connection to " + host.getHostAddress() + ":" + service.getLocalPort();
            await("the connector's log showing " + forwarded, () -> connector.logTail(400).contains(forwarded));
        }
    }

    @ParameterizedTest(name = "tailscale {0}")
    @MethodSource("io.meshcontrol.interop.ClientVersions#all")
    void aConnectorJoiningWithItsRoutesAdvertisedRegistersAndServesItsAppsPublicRoutes(ClientVersion version)
            throws Exception {
        network = TestNetwork.start(folder, nodes, Duration.ofMinutes(30));
        MeshClient admin = network.admin();
        admin.createUser(new UserRequest("alice", null, "alice@example.com", "admin"));
        admin.setPolicy(DOCUMENTED_POLICY);
        String memberKey = admin.createPreAuthKey(new PreAuthKeyRequest("alice", null, true, false, false, "", null))
                .secret();
        String connectorKey = admin.createPreAuthKey(new PreAuthKeyRequest("alice", List.of("tag:connector"), true,
                false, false, "", null)).secret();
        network.svc("apps", "create", "--name", "intranet", "--domain", "intranet.apps.test", "--connector",
                "tag:connector", "--route", "10.50.0.0/24", "--route", "198.51.100.0/24");

        // The way docs/apps.md brings a connector up: its routes advertised from the first registration on.
        TailscaleNode connector = network.node(version, "connector");
        connector.up(network.loginServer(), connectorKey, "connector", "--advertise-connector",
                "--advertise-routes=10.50.0.0/24,10.51.0.0/24,198.51.100.0/24").requireOk();
        TailscaleNode peer = network.node(version, "peer");
        peer.up(network.loginServer(), memberKey, "peer", "--accept-routes").requireOk();

        await("its apps' static routes approved, the other subnet waiting", () -> network.view("connector")
                .routes().approved().equals(List.of("10.50.0.0/24", "198.51.100.0/24")));
        NodeStatus seen = peer.awaitStatus("the connector serving 198.51.100.0/24", s -> s.peer("connector")
                .map(p -> PeerStatus.texts(p.json(), "PrimaryRoutes").contains("198.51.100.0/24")).orElse(false),
                SOON);
        List<String> allowed = PeerStatus.texts(seen.peer("connector").orElseThrow().json(), "AllowedIPs");
        assertTrue(allowed.contains("198.51.100.0/24") && !allowed.contains("10.50.0.0/24"),
                "the public route through autogroup:internet; the private one needs a rule that names it: " + allowed);
    }

    private static AppView app(MeshClient admin) {
        return admin.apps().getFirst();
    }

    /** Asks the peer's resolver until the connector answers (split DNS arrives with a map, the PeerAPI with a peer). */
    private static String awaitAnswer(TailscaleNode peer, Inet4Address host) throws InterruptedException {
        long deadline = System.nanoTime() + SOON.toNanos();
        CliResult last;
        do {
            last = peer.cli("dns", "query", NAME);
            if (last.ok() && last.output().contains(host.getHostAddress())) {
                return last.output();
            }
            Thread.sleep(500);
        } while (System.nanoTime() < deadline);
        throw new AssertionError("the peer never resolved " + NAME + " through the connector: " + last.describe());
    }

    /** One HTTP exchange through the peer's SOCKS5 proxy, which sends a routed address into the network. */
    private static String fetch(TailscaleNode peer, Inet4Address host, int port) throws IOException {
        try (Socket socket = new Socket(new Proxy(Proxy.Type.SOCKS, peer.socksAddress()))) {
            socket.setSoTimeout((int) SOON.toMillis());
            socket.connect(new InetSocketAddress(host, port), (int) SOON.toMillis());
            OutputStream out = socket.getOutputStream();
            out.write("GET / HTTP/1.0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String response = new String(socket.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
            return response.substring(response.indexOf("\r\n\r\n") + 4);
        }
    }

    private static void serve(ServerSocket service) {
        while (!service.isClosed()) {
            try (Socket client = service.accept()) {
                InputStream in = client.getInputStream();
                in.read(new byte[1024]);
                client.getOutputStream().write("HTTP/1.0 200 OK\r\nContent-Length: 20\r\n\r\nbehind the connector"
                        .getBytes(StandardCharsets.US_ASCII));
            } catch (IOException e) {
                // closed at the end of the test
            }
        }
    }

    /** Waits for {@code condition}, checked every 300 ms: most checks run a client's CLI. */
    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        Await.until(what, SOON, Duration.ofMillis(300), condition, () -> "");
    }


    /**
     * The machine's IPv4 address on the interface of its default route, else on the first interface that is up and
     * not loopback. Not just the first: a test running beside this one in another JVM may add a veth pair with an
     * address of its own (LocationPostureTest), gone before this test ends.
     */
    private static Optional<Inet4Address> hostAddress() throws IOException {
        String defaultRoute = defaultRouteInterface().orElse(null);
        List<NetworkInterface> nics = new ArrayList<>(NetworkInterface.networkInterfaces().toList());
        nics.sort(Comparator.comparing(nic -> !nic.getName().equals(defaultRoute)));
        for (NetworkInterface nic : nics) {
            if (nic.isUp() && !nic.isLoopback()) {
                Optional<Inet4Address> v4 = nic.inetAddresses().filter(a -> a instanceof Inet4Address)
                        .map(a -> (Inet4Address) a).findFirst();
                if (v4.isPresent()) {
                    return v4;
                }
            }
        }
        return Optional.empty();
    }

    /** The interface of the IPv4 default route, from the kernel's routing table. */
    private static Optional<String> defaultRouteInterface() throws IOException {
        Path routes = Path.of("/proc/net/route");
        if (!Files.isReadable(routes)) {
            return Optional.empty();
        }
        return Files.readAllLines(routes).stream().skip(1).map(line -> line.trim().split("\\s+"))
                .filter(fields -> fields.length > 1 && fields[1].equals("00000000")).map(fields -> fields[0])
                .findFirst();
    }
}
