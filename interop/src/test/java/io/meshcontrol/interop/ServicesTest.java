package io.meshcontrol.interop;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.api.MeshClient;
import io.meshcontrol.api.PreAuthKeyRequest;
import io.meshcontrol.api.UserRequest;
import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.model.VipService;
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
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A service (the vendor's VIP service) with real clients: a tagged node serves {@code svc:web} with
 * {@code tailscale serve --service}, which it may do once its map names the service's addresses (the
 * {@code service-host} capability); a peer the policy lets reach the host's tag on the port reaches the service's
 * own address, which its map routes to the host (docs/api-v2.md, "Services").
 */
class ServicesTest {

    private static final Duration SOON = Duration.ofSeconds(30);

    @RegisterExtension
    final TailscaleNodes nodes = new TailscaleNodes();

    @TempDir
    Path folder;

    private TestNetwork network;
    private ServerSocket backend;

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable closeable : new AutoCloseable[] {backend, network}) {
            if (closeable != null) {
                closeable.close();
            }
        }
    }

    @Test
    void aPeerReachesAServiceOnItsOwnAddressThroughTheTaggedHost() throws Exception {
        network = TestNetwork.start(folder, nodes, Duration.ofMinutes(30));
        MeshClient admin = network.admin();
        admin.createUser(new UserRequest("alice", null, "alice@example.com", "member"));
        admin.setPolicy("""
                {"tagOwners": {"tag:web": ["alice@example.com"]},
                 "acls": [{"action": "accept", "src": ["alice@example.com"], "dst": ["tag:web:443"]}]}
                """);
        String userKey = admin.createPreAuthKey(new PreAuthKeyRequest("alice", null, true, false, false, "", null))
                .secret();
        String hostKey = admin.createPreAuthKey(new PreAuthKeyRequest("alice", List.of("tag:web"), true, false, false,
                "", null)).secret();
        VipService web = network.server().network.vipServices().put(Caller.localAdmin(), new VipService("svc:web",
                null, null, "", Map.of(), List.of("tcp:443"), List.of("tag:web")), List.of());
        ClientVersion version = ClientVersions.newest();
        TailscaleNode laptop = network.joined(version, "laptop", userKey);
        TailscaleNode host = network.joined(version, "host", hostKey);
        backend = listener();

        CliResult serve = host.cli("serve", "--service=svc:web", "--bg", "--yes", "--tcp=443",
                "tcp://127.0.0.1:" + backend.getLocalPort());
        serve.requireOk();
        assertTrue(eventually(() -> host.cli("debug", "netmap").requireOk().stdout().contains(web.ipv4())),
                "the host's map names the service's addresses: " + host.cli("debug", "netmap").stdout());
        assertTrue(eventually(() -> reaches(laptop, web.ipv4(), 443)),
                "the laptop reaches svc:web at " + web.ipv4() + ":443 through the host");
        String hostIp = network.view("host").ipv4();
        assertTrue(!reaches(laptop, hostIp, backend.getLocalPort()), "and not the backend on the host's own address");
    }

    /** The backend behind the service, on this machine's loopback. */
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

    /** Whether {@code from}, through its SOCKS5 proxy, gets the backend's greeting from {@code ip:port}. */
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

    private static boolean eventually(java.util.function.BooleanSupplier check) throws InterruptedException {
        Instant deadline = Instant.now().plus(SOON);
        while (Instant.now().isBefore(deadline)) {
            if (check.getAsBoolean()) {
                return true;
            }
            Thread.sleep(500);
        }
        return false;
    }
}
