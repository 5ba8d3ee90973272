package io.meshcontrol.interop;

import java.io.IOException;
import java.io.InputStream;
import java.net.DatagramSocket;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * Let's Encrypt's test CA, {@code pebble}, with {@code pebble-challtestsrv} as the DNS server its validation
 * asks (every name resolves to 127.0.0.1; TXT records are set through its management API), both on loopback, built
 * by {@code interop/install-pebble.sh} into {@code .cache/pebble}. Pebble validates HTTP-01 and TLS-ALPN-01 on the
 * ports given here, which the server under test listens on.
 */
final class Pebble implements AutoCloseable {

    private final Process challtestsrv;
    private final Process pebble;
    private final int acmePort;
    private final int managementPort;
    private final int dnsManagementPort;
    private final int dnsPort;
    private final HttpClient client;

    private Pebble(Process challtestsrv, Process pebble, int acmePort, int managementPort, int dnsManagementPort,
            int dnsPort, HttpClient client) {
        this.challtestsrv = challtestsrv;
        this.pebble = pebble;
        this.acmePort = acmePort;
        this.managementPort = managementPort;
        this.dnsManagementPort = dnsManagementPort;
        this.dnsPort = dnsPort;
        this.client = client;
    }

    static Path home() {
        return ClientVersions.repositoryRoot().resolve(".cache/pebble");
    }

    /**
     * Starts both; pebble connects to {@code httpPort} for HTTP-01 and {@code tlsPort} for TLS-ALPN-01.
     */
    static Pebble start(Path workDir, int httpPort, int tlsPort) throws Exception {
        return start(workDir, httpPort, tlsPort, null);
    }

    /**
     * As {@link #start(Path, int, int)}, with pebble validating against {@code dnsServer} (host:port, a real DNS
     * server that is authoritative for the names asked for) instead of {@code pebble-challtestsrv}; null means the
     * latter.
     */
    static Pebble start(Path workDir, int httpPort, int tlsPort, String dnsServer) throws Exception {
        Path home = home();
        if (!Files.isExecutable(home.resolve("pebble"))) {
            throw new IllegalStateException("pebble is not built: run interop/install-pebble.sh");
        }
        Files.createDirectories(workDir);
        int dnsPort = freeUdpPort();
        // Chosen together before either server starts: a port chosen after challtestsrv was started could be the
        // one it is about to bind (seen once: pebble's ACME port was challtestsrv's management port).
        int[] tcpPorts = freeTcpPorts(3);
        int dnsManagementPort = tcpPorts[0];
        Process challtestsrv = ChildProcesses.start(new ProcessBuilder(List.of(
                home.resolve("pebble-challtestsrv").toString(),
                "-dnsserver", "127.0.0.1:" + dnsPort, "-management", "127.0.0.1:" + dnsManagementPort,
                "-http01", "", "-https01", "", "-tlsalpn01", "", "-doh", "",
                "-defaultIPv4", "127.0.0.1", "-defaultIPv6", ""))
                .redirectErrorStream(true).redirectOutput(workDir.resolve("challtestsrv.log").toFile()));
        int acmePort = tcpPorts[1];
        int managementPort = tcpPorts[2];
        Path config = workDir.resolve("pebble-config.json");
        Files.writeString(config, """
                {"pebble": {
                  "listenAddress": "127.0.0.1:%d",
                  "managementListenAddress": "127.0.0.1:%d",
                  "certificate": "%s",
                  "privateKey": "%s",
                  "httpPort": %d,
                  "tlsPort": %d,
                  "ocspResponderURL": "",
                  "externalAccountBindingRequired": false,
                  "retryAfter": {"authz": 1, "order": 1},
                  "keyAlgorithm": "ecdsa",
                  "profiles": {"default": {"description": "90 days", "validityPeriod": 7776000}}
                }}
                """.formatted(acmePort, managementPort, home.resolve("certs/localhost-cert.pem"),
                home.resolve("certs/localhost-key.pem"), httpPort, tlsPort));
        ProcessBuilder builder = new ProcessBuilder(List.of(home.resolve("pebble").toString(),
                "-config", config.toString(), "-dnsserver", dnsServer == null ? "127.0.0.1:" + dnsPort : dnsServer))
                .redirectErrorStream(true).redirectOutput(workDir.resolve("pebble.log").toFile());
        Map<String, String> env = builder.environment();
        env.put("PEBBLE_VA_NOSLEEP", "1");
        env.put("PEBBLE_WFE_NONCEREJECT", "0");
        Process pebble = ChildProcesses.start(builder);
        HttpClient client = HttpClient.newBuilder().sslContext(trusting(apiCertificate())).build();
        Pebble started = new Pebble(challtestsrv, pebble, acmePort, managementPort, dnsManagementPort, dnsPort, client);
        try {
            started.awaitReady(workDir);
        } catch (Exception e) {
            started.close();
            throw e;
        }
        return started;
    }

    /** The directory as acme4j's pebble provider takes it (it trusts pebble's API certificate by itself). */
    String acmeUrl() {
        return "acme://pebble/localhost:" + acmePort;
    }

    /** The port of the ACME API (HTTPS, {@code /dir} is the directory), for {@link PebbleFront}. */
    int acmePort() {
        return acmePort;
    }

    /** The CA certificate of the certificate pebble serves its API with (PEM file), for ACME clients to trust. */
    static Path apiCertificate() {
        return home().resolve("certs/minica.pem");
    }

    /**
     * The management API of the DNS server pebble validates DNS-01 against: {@code POST /set-txt} with
     * {@code {"host": "<fqdn>.", "value": "..."}}, {@code POST /clear-txt} with {@code {"host": "<fqdn>."}}.
     */
    String dnsManagementUrl() {
        return "http://127.0.0.1:" + dnsManagementPort;
    }

    /** The root certificate pebble issues under in this run (PEM), for clients to trust. */
    String roots() throws IOException, InterruptedException {
        return get("https://localhost:" + managementPort + "/roots/0");
    }

    /** The DNS server pebble validates DNS-01 against, as host:port. */
    String dnsServer() {
        return "127.0.0.1:" + dnsPort;
    }

    private String get(String url) throws IOException, InterruptedException {
        HttpResponse<String> response = client.send(HttpRequest.newBuilder(URI.create(url)).build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException(url + " answered " + response.statusCode());
        }
        return response.body();
    }

    private void awaitReady(Path workDir) throws Exception {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(30));
        while (Instant.now().isBefore(deadline)) {
            if (!pebble.isAlive() || !challtestsrv.isAlive()) {
                throw new IllegalStateException("pebble exited: " + Files.readString(workDir.resolve("pebble.log"))
                        + Files.readString(workDir.resolve("challtestsrv.log")));
            }
            try {
                get("https://localhost:" + acmePort + "/dir");
                return;
            } catch (IOException e) {
                Thread.sleep(100);
            }
        }
        throw new IllegalStateException("pebble did not answer within 30 s: "
                + Files.readString(workDir.resolve("pebble.log")));
    }

    private static SSLContext trusting(Path pem) throws Exception {
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        try (InputStream in = Files.newInputStream(pem)) {
            store.setCertificateEntry("minica", CertificateFactory.getInstance("X.509").generateCertificate(in));
        }
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(store);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, trust.getTrustManagers(), null);
        return context;
    }

    static int freeTcpPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** Distinct free ports: every socket is held open until all are chosen. */
    private static int[] freeTcpPorts(int count) throws IOException {
        ServerSocket[] sockets = new ServerSocket[count];
        try {
            int[] ports = new int[count];
            for (int i = 0; i < count; i++) {
                sockets[i] = new ServerSocket(0);
                ports[i] = sockets[i].getLocalPort();
            }
            return ports;
        } finally {
            for (ServerSocket socket : sockets) {
                if (socket != null) {
                    socket.close();
                }
            }
        }
    }

    private static int freeUdpPort() throws IOException {
        try (DatagramSocket socket = new DatagramSocket(0)) {
            return socket.getLocalPort();
        }
    }

    @Override
    public void close() {
        ChildProcesses.stop(pebble, Duration.ofSeconds(5));
        ChildProcesses.stop(challtestsrv, Duration.ofSeconds(5));
    }

    static String utf8(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
