package io.meshcontrol.server.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.api.PreAuthKeyRequest;
import io.meshcontrol.api.UserRequest;
import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.key.MachinePrivateKey;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.testing.Machine;
import io.meshcontrol.core.wire.SetDNSRequest;
import io.meshcontrol.server.nodecerts.ChallengeRecords;
import io.meshcontrol.server.nodecerts.CommandHook;
import io.meshcontrol.server.nodecerts.TxtRecord;
import io.meshcontrol.server.testing.TestServer;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code /machine/set-dns} as {@code tailscale cert} calls it: a node's own challenge record is published through the
 * configured DNS provider (here the command hook, a script that notes its calls) before the answer; anything else,
 * another node's name, another type, a value that is no DNS-01 digest, a key that is not the caller's, is refused
 * with a line saying why, and nothing is published.
 */
class SetDnsEndpointTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(20);
    private static final String VALUE = "LoqXcYV8q5ONbJQxbmR7SCTNo3tiAXDfowyjxAjEuX0";

    @TempDir
    Path folder;
    TestServer server;
    Path calls;

    final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();

    @AfterEach
    void stop() {
        scheduler.shutdownNow();
        if (server != null) {
            server.close();
        }
    }

    /** A server whose command hook notes each call, and fails for names with "broken" in them. */
    private void start() throws Exception {
        calls = folder.resolve("calls.txt");
        Path hook = Files.writeString(folder.resolve("hook.sh"), """
                #!/bin/sh
                case "$2" in *broken*) echo "the zone's API said no" >&2; exit 3 ;; esac
                echo "$1 $2 $3" >> '%s'
                """.formatted(calls));
        Files.setPosixFilePermissions(hook, PosixFilePermissions.fromString("rwx------"));
        server = TestServer.in(folder)
                .set("https_certificates.enabled", "true")
                .set("https_certificates.dns_provider", "command")
                .set("https_certificates.command.path", hook.toString())
                .start();
        server.adminClient().createUser(new UserRequest("alice", null, "alice@example.com", "member"));
    }

    private String authKey() {
        return server.adminClient().createPreAuthKey(new PreAuthKeyRequest("alice", null, true, false, false, "", null))
                .secret();
    }

    private static String body(Node node, String name, String type, String value) {
        return "{\"Version\":131,\"NodeKey\":\"" + node.nodeKey().toText() + "\",\"Name\":\"" + name
                + "\",\"Type\":\"" + type + "\",\"Value\":\"" + value + "\"}";
    }

    private List<String> calls() throws Exception {
        return Files.exists(calls) ? Files.readAllLines(calls) : List.of();
    }

    @Test
    void aNodesOwnChallengeRecordIsPublishedBeforeTheAnswer() throws Exception {
        start();
        InetSocketAddress address = new InetSocketAddress("127.0.0.1", server.server.httpAddress().getPort());
        try (NoiseTestClient noise = NoiseTestClient.connect(address, server.server.noisePublicKey(), 131);
                Http2TestClient http2 = new Http2TestClient(noise)) {
            Node web = Machine.named("web").machineKey(noise.machineKey.publicKey()).join(server.network, authKey());
            Http2TestClient.Exchange answer = http2.request("POST", SetDNSRequest.PATH,
                    body(web, "_acme-challenge.web.mesh.test", "TXT", VALUE).getBytes(StandardCharsets.UTF_8));
            assertEquals(200, answer.status(TIMEOUT));
            assertEquals("{}", new String(answer.body(TIMEOUT), StandardCharsets.UTF_8));
            assertEquals(List.of("present _acme-challenge.web.mesh.test " + VALUE), calls());

            Http2TestClient.Exchange refused = http2.request("POST", SetDNSRequest.PATH,
                    body(web, "_acme-challenge.db.mesh.test", "TXT", VALUE).getBytes(StandardCharsets.UTF_8));
            assertEquals(403, refused.status(TIMEOUT));
            assertEquals("this node may only set [_acme-challenge.web.mesh.test] (got "
                    + "\"_acme-challenge.db.mesh.test\")\n", new String(refused.body(TIMEOUT), StandardCharsets.UTF_8));
            assertEquals(1, calls().size(), "a refused request publishes nothing");
        }
    }

    @Test
    void aProviderThatFailsIsABadGatewayWithItsReason() throws Exception {
        start();
        InetSocketAddress address = new InetSocketAddress("127.0.0.1", server.server.httpAddress().getPort());
        try (NoiseTestClient noise = NoiseTestClient.connect(address, server.server.noisePublicKey(), 131);
                Http2TestClient http2 = new Http2TestClient(noise)) {
            Node broken = Machine.named("broken").machineKey(noise.machineKey.publicKey())
                    .join(server.network, authKey());
            Http2TestClient.Exchange answer = http2.request("POST", SetDNSRequest.PATH,
                    body(broken, "_acme-challenge.broken.mesh.test", "TXT", VALUE)
                            .getBytes(StandardCharsets.UTF_8));
            assertEquals(502, answer.status(TIMEOUT));
            String text = new String(answer.body(TIMEOUT), StandardCharsets.UTF_8);
            assertTrue(text.startsWith("the DNS provider could not publish _acme-challenge.broken.mesh.test: ")
                    && text.contains("exited with 3: the zone's API said no"), text);
        }
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @CsvSource(delimiter = '|', value = {
            "_acme-challenge.web.mesh.test|A|" + VALUE + "|INVALID|only TXT records can be set (got type \"A\")",
            "web.mesh.test|TXT|" + VALUE + "|FORBIDDEN|this node may only set [_acme-challenge.web.mesh.test] (got \"web.mesh.test\")",
            "_acme-challenge.db.mesh.test|TXT|" + VALUE + "|FORBIDDEN|this node may only set [_acme-challenge.web.mesh.test] (got \"_acme-challenge.db.mesh.test\")",
            "_acme-challenge.web.example.com|TXT|" + VALUE + "|FORBIDDEN|this node may only set [_acme-challenge.web.mesh.test] (got \"_acme-challenge.web.example.com\")",
            "_acme-challenge.x.web.mesh.test|TXT|" + VALUE + "|FORBIDDEN|this node may only set [_acme-challenge.web.mesh.test] (got \"_acme-challenge.x.web.mesh.test\")",
            "_acme-challenge.web.mesh.test|TXT|not-a-digest|INVALID|the value must be an ACME DNS-01 digest: 43 base64url characters",
            "_acme-challenge.web.mesh.test|TXT|" + VALUE + "\"; rm -rf /|INVALID|the value must be an ACME DNS-01 digest: 43 base64url characters",
    })
    void anythingButTheNodesOwnChallengeRecordIsRefused(String name, String type, String value,
            MeshException.Reason reason, String message) throws Exception {
        start();
        Node web = Machine.named("web").join(server.network, authKey());
        Machine.named("db").join(server.network, authKey());
        SetDnsEndpoint endpoint = endpoint(true);
        MeshException refused = assertThrows(MeshException.class,
                () -> endpoint.check(web.machineKey(), new SetDNSRequest(131, web.nodeKey(), name, type, value)));
        assertEquals(reason, refused.reason());
        assertEquals(message, refused.getMessage());
        assertEquals(List.of(), calls());
    }

    @Test
    void theRecordIsTheNodesChallengeNameInLowerCase() throws Exception {
        start();
        Node web = Machine.named("web").join(server.network, authKey());
        assertEquals(new TxtRecord("_acme-challenge.web.mesh.test", VALUE), endpoint(true).check(web.machineKey(),
                new SetDNSRequest(131, web.nodeKey(), "_ACME-Challenge.Web.Mesh.Test.", "txt", VALUE)));
    }

    @Test
    void onlyTheNodeBehindTheConnectionAdmittedAndWithAValidKeyMayPublish() throws Exception {
        start();
        Node web = Machine.named("web").join(server.network, authKey());
        SetDNSRequest request = new SetDNSRequest(131, web.nodeKey(), "_acme-challenge.web.mesh.test", "TXT",
                VALUE);
        MeshException otherMachine = assertThrows(MeshException.class,
                () -> endpoint(true).check(MachinePrivateKey.generate().publicKey(), request));
        assertEquals(MeshException.Reason.UNAUTHENTICATED, otherMachine.reason());

        server.network.nodes().suspend(Caller.localAdmin(), web.id());
        MeshException suspended = assertThrows(MeshException.class, () -> endpoint(true).check(web.machineKey(),
                request));
        assertEquals(MeshException.Reason.FORBIDDEN, suspended.reason());
        assertEquals(List.of(), calls());
    }

    @Test
    void aServerThatGivesNoCertificatesSaysSo() throws Exception {
        start();
        Node web = Machine.named("web").join(server.network, authKey());
        MeshException refused = assertThrows(MeshException.class, () -> endpoint(false).check(web.machineKey(),
                new SetDNSRequest(131, web.nodeKey(), "_acme-challenge.web.mesh.test", "TXT", VALUE)));
        assertEquals(MeshException.Reason.FORBIDDEN, refused.reason());
        assertEquals("this server gives nodes no certificates (https_certificates.enabled is false)",
                refused.getMessage());
    }

    /** An endpoint over the test server's network and map context, with the hook's records or none. */
    private SetDnsEndpoint endpoint(boolean enabled) {
        return new SetDnsEndpoint(server.network.snapshots(), server.network.mapContext(), enabled
                ? Optional.of(new ChallengeRecords(new CommandHook(folder.resolve("hook.sh"), Duration.ofSeconds(10)),
                        Duration.ofMinutes(10), Clock.systemUTC(), scheduler))
                : Optional.empty(), Clock.systemUTC());
    }
}
