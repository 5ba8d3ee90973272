package io.meshcontrol.server.testing;

import io.meshcontrol.server.Application;
import io.meshcontrol.server.MeshServer;

import io.meshcontrol.api.LocalAccess;
import io.meshcontrol.api.MeshClient;
import io.meshcontrol.core.BuildInfo;
import io.meshcontrol.core.config.ConfigLoader;
import io.meshcontrol.core.config.ConfigRequest;
import io.meshcontrol.core.config.LoadedConfig;
import io.meshcontrol.core.config.MeshConfig;
import io.meshcontrol.core.state.Network;
import io.meshcontrol.relay.map.MapUrlFetcher;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A real server on a free loopback port over a database in a test folder, started by {@link Application} from a
 * configuration as {@code svc serve} starts it. The configuration is the built-in defaults with test values laid
 * over them as {@code SVC_} variables ({@link Builder#set}); no DERP map is fetched and no host name resolved.
 */
public final class TestServer implements AutoCloseable {

    public final Path dataDir;
    public final Application application;
    public final Network network;
    public final MeshServer server;
    public final List<String> clientWarnings = new ArrayList<>();
    private final HttpClient http = HttpClient.newHttpClient();

    private TestServer(Path dataDir, Application application) {
        this.dataDir = dataDir;
        this.application = application;
        this.network = application.network();
        this.server = application.server();
    }

    public static TestServer start(Path folder) {
        return in(folder).start();
    }

    /** A server that states another version, to see clients notice the mismatch. */
    public static TestServer start(Path folder, String version) {
        return in(folder).version(version).start();
    }

    /** A server that also runs the embedded relay (region 999, STUN on a free loopback port), published in its maps. */
    public static TestServer startWithRelay(Path folder, boolean verifyClients) {
        return in(folder).relay(verifyClients).start();
    }

    /** A server to configure further; its files go to {@code folder/data}. */
    public static Builder in(Path folder) {
        return new Builder(folder);
    }

    /** The configuration and launch values of a test server. */
    public static final class Builder {

        private final Path dataDir;
        private final Map<String, String> settings = new LinkedHashMap<>();
        private String version = BuildInfo.version();
        private Clock clock = Clock.systemUTC();
        private MapUrlFetcher.Resolver resolver = MapUrlFetcher.Resolver.literalsOnly();
        private final Map<String, String> environment = new LinkedHashMap<>();
        private PortChoice portChoice; // what onFreePort() was given, if anything
        private Map<String, String> chosen = Map.of(); // the settings it wrote last

        private Builder(Path folder) {
            this.dataDir = folder.resolve("data");
            set("server_url", "http://127.0.0.1:8080");
            set("listen_addr", "127.0.0.1:0");
            set("metrics_listen_addr", "127.0.0.1:0");
            set("noise.private_key_path", dataDir.resolve("noise_private.key").toString());
            set("database.sqlite.path", dataDir.resolve("db.sqlite").toString());
            set("cli.local_credential_path", dataDir.resolve("cli-credential.json").toString());
            set("dns.base_domain", "mesh.test");
            set("derp.server.enabled", "false");
            set("derp.server.stun_listen_addr", "127.0.0.1:0");
            set("derp.server.tls_listen_addr", "127.0.0.1:0");
            set("derp.urls", "");
            set("client_updates.check", "false");
        }

        /**
         * Sets a configuration key ({@code derp.urls}, {@code node.ephemeral.inactivity_timeout}) to a value written
         * as its {@code SVC_} variable takes it: lists space-separated, durations in Go syntax, empty for empty.
         */
        public Builder set(String key, String value) {
            settings.put(key, value);
            return this;
        }

        /**
         * {@code listen_addr} on a loopback port free now, and {@code server_url} naming it, for tests that follow
         * URLs the server writes for others (a machine's AuthURL, the OIDC callback the issuer redirects to).
         */
        public Builder reachableServerUrl() {
            return onFreePort((builder, port) -> builder.set("listen_addr", "127.0.0.1:" + port)
                    .set("server_url", "http://127.0.0.1:" + port));
        }

        /**
         * Settings that must name a port before the server binds it (a URL naming the listener), so port 0 cannot be
         * used: {@code choice} writes them for a loopback port free now. Should something else take the port in
         * between (a test running in parallel), {@link #start()} has {@code choice} write them again for another,
         * as long as no later setting replaced what it wrote.
         */
        public Builder onFreePort(PortChoice choice) {
            Map<String, String> before = new LinkedHashMap<>(settings);
            choice.write(this, freeLoopbackPort());
            Map<String, String> written = new LinkedHashMap<>();
            settings.forEach((key, value) -> {
                if (!value.equals(before.get(key))) {
                    written.put(key, value);
                }
            });
            portChoice = choice;
            chosen = written;
            return this;
        }

        /** Writes the settings that name {@code port}. */
        @FunctionalInterface
        public interface PortChoice {
            void write(Builder builder, int port);
        }

        private static int freeLoopbackPort() {
            try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
                return socket.getLocalPort();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** The embedded relay on ({@code derp.server.enabled}), its key in the data folder. */
        public Builder relay(boolean verifyClients) {
            return set("derp.server.enabled", "true").set("derp.server.verify_clients", Boolean.toString(verifyClients));
        }

        public Builder version(String version) {
            this.version = version;
            return this;
        }

        /** A process environment variable that is not a configuration key ({@code MESH_DEBUG_KEY_PATH}). */
        public Builder environment(String name, String value) {
            environment.put(name, value);
            return this;
        }

        public Builder clock(Clock clock) {
            this.clock = clock;
            return this;
        }

        /** How the server resolves the names it fetches from; IP literals only by default (nothing leaves). */
        public Builder resolver(MapUrlFetcher.Resolver resolver) {
            this.resolver = resolver;
            return this;
        }

        /** The configuration as the server would load it; a key that is unknown or invalid fails the test at once. */
        private MeshConfig config() {
            Map<String, String> env = new LinkedHashMap<>();
            settings.forEach((key, value) -> env.put("SVC_" + key.toUpperCase(Locale.ROOT).replace('.', '_'), value));
            LoadedConfig loaded = ConfigLoader.load(new ConfigRequest(null, env, dataDir, null,
                    dataDir.resolve("no-system-config")));
            if (!loaded.valid() || !loaded.warnings().isEmpty()) {
                throw new IllegalArgumentException("test server configuration: " + loaded.errors() + " "
                        + loaded.warnings());
            }
            return loaded.config();
        }

        public TestServer start() {
            for (int attempt = 1; ; attempt++) {
                try {
                    return new TestServer(dataDir, Application.start(config(),
                            new Application.Launch(version, clock, resolver,
                                    environment)));
                } catch (RuntimeException e) {
                    if (portChoice == null || !settings.entrySet().containsAll(chosen.entrySet()) || attempt == 5
                            || !portTaken(e)) {
                        throw e;
                    }
                    onFreePort(portChoice);
                }
            }
        }

        /** Whether a server's start failed because a port it was to bind had been taken (a bind refused). */
        private static boolean portTaken(Throwable e) {
            for (Throwable cause = e; cause != null; cause = cause.getCause()) {
                if (cause instanceof java.net.BindException) {
                    return true;
                }
            }
            return false;
        }
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
        // Over HTTPS the loopback address is not the certificate's name; tests check certificates themselves.
        return new MeshClient(url(), token, "https".equals(url().getScheme()), BuildInfo.version(),
                clientWarnings::add);
    }

    public MeshClient adminClient() {
        return client(localToken());
    }

    /** {@code GET /metrics} on the metrics listener. */
    public HttpResponse<String> scrapeMetrics() throws IOException, InterruptedException {
        var address = server.metricsAddress().orElseThrow();
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                + address.getPort() + "/metrics")).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** A raw request, for asserting on status codes, headers and bodies. */
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
        headers.forEach(builder::setHeader);
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
        application.close();
    }
}
