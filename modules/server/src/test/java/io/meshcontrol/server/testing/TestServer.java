package io.meshcontrol.server.testing;

import io.meshcontrol.server.MeshServer;
import io.meshcontrol.server.ServerSettings;

import io.meshcontrol.api.LocalAccess;
import io.meshcontrol.api.MeshClient;
import io.meshcontrol.core.BuildInfo;
import io.meshcontrol.core.state.Network;
import io.meshcontrol.core.state.NetworkOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/** A real server on a free loopback port over a database in a test folder. */
public final class TestServer implements AutoCloseable {

    public final Path dataDir;
    public final Network network;
    public final MeshServer server;
    public final List<String> clientWarnings = new ArrayList<>();
    private final HttpClient http = HttpClient.newHttpClient();

    private TestServer(Path dataDir, Network network, MeshServer server) {
        this.dataDir = dataDir;
        this.network = network;
        this.server = server;
    }

    public static TestServer start(Path folder) {
        return start(folder, BuildInfo.version());
    }

    /** A server that states another version, to see clients notice the mismatch. */
    public static TestServer start(Path folder, String version) {
        return start(folder, version, ServerSettings.Control.defaults("mesh.test"));
    }

    /** A server with its own control-protocol settings (relay map, timeouts), for tests with real clients. */
    public static TestServer start(Path folder, ServerSettings.Control control) {
        return start(folder, BuildInfo.version(), control);
    }

    /**
     * A server that also runs the embedded relay (region 999, STUN on a free loopback port), published in the maps
     * next to the relays of {@code control}.
     */
    public static TestServer startWithRelay(Path folder, ServerSettings.Control control, boolean verifyClients) {
        return start(folder, BuildInfo.version(), control,
                ServerSettings.Relay.forTests(folder.resolve("data").resolve("derp_server_private.key"), verifyClients));
    }

    /**
     * A server with the given relay and DERP map sources, and a metrics listener on a free loopback port. Build
     * {@code maps} with {@link ServerSettings.DerpMaps#forTests}, which resolves no host names. Map URLs in tests
     * point at loopback servers of the test: pass {@code new EgressGuard(false, true)} (the
     * {@code egress.allow_loopback_targets} switch), since loopback is refused by default.
     */
    public static TestServer start(Path folder, ServerSettings.Relay relay, ServerSettings.DerpMaps maps) {
        Path dataDir = folder.resolve("data");
        Network network = Network.open(dataDir.resolve("db.sqlite"), true, Clock.systemUTC(),
                NetworkOptions.defaults());
        ServerSettings settings = new ServerSettings("127.0.0.1", 0, "127.0.0.1", 0, "http://127.0.0.1:8080",
                "mesh.test", BuildInfo.version(), dataDir.resolve("cli-credential.json"),
                dataDir.resolve("noise_private.key"), ServerSettings.Control.defaults("mesh.test"), relay, maps);
        return new TestServer(dataDir, network, MeshServer.start(settings, network, Clock.systemUTC()));
    }

    /** The relay as tests run it (STUN on a free loopback port), with its key in the test folder. */
    public static ServerSettings.Relay testRelay(Path folder, boolean verifyClients) {
        return ServerSettings.Relay.forTests(folder.resolve("data").resolve("derp_server_private.key"), verifyClients);
    }

    private static TestServer start(Path folder, String version, ServerSettings.Control control) {
        return start(folder, version, control, ServerSettings.Relay.OFF);
    }

    private static TestServer start(Path folder, String version, ServerSettings.Control control,
            ServerSettings.Relay relay) {
        Path dataDir = folder.resolve("data");
        Network network = Network.open(dataDir.resolve("db.sqlite"), true, Clock.systemUTC(),
                NetworkOptions.defaults());
        ServerSettings settings = new ServerSettings("127.0.0.1", 0, "127.0.0.1", 0, "http://127.0.0.1:8080",
                "mesh.test", version, dataDir.resolve("cli-credential.json"), dataDir.resolve("noise_private.key"),
                control, relay);
        return new TestServer(dataDir, network, MeshServer.start(settings, network, Clock.systemUTC()));
    }

    public URI url() {
        return server.localUrl();
    }

    public Path localCredentialPath() {
        return dataDir.resolve("cli-credential.json");
    }

    public String localToken() {
        try {
            return LocalAccess.read(localCredentialPath()).token();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A v1 client with the given credential (null for none). */
    public MeshClient client(String token) {
        return new MeshClient(url(), token, false, BuildInfo.version(), clientWarnings::add);
    }

    public MeshClient adminClient() {
        return client(localToken());
    }

    /** A raw request, for asserting on status codes, headers and bodies. */
    /** {@code GET /metrics} on the metrics listener. */
    public HttpResponse<String> scrapeMetrics() throws IOException, InterruptedException {
        var address = server.metricsAddress().orElseThrow();
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                + address.getPort() + "/metrics")).build(), HttpResponse.BodyHandlers.ofString());
    }

    public HttpResponse<String> request(String method, String path, String token, String body) {
        return request(method, path, token, body, java.util.Map.of());
    }

    /** A raw request with extra headers (If-Match, say). */
    public HttpResponse<String> request(String method, String path, String token, String body,
            java.util.Map<String, String> headers) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(url().resolve(path))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (token != null) {
            builder.header("Authorization", "Bearer " + token);
        }
        if (body != null) {
            builder.header("Content-Type", "application/json");
        }
        headers.forEach(builder::header);
        try {
            return http.send(builder.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        server.close();
    }
}
