package io.meshcontrol.server.testing;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Debian's Knot DNS as a real authoritative server on loopback that takes RFC 2136 updates signed with TSIG: zone
 * {@link #ZONE}, one key per algorithm ({@code mesh-sha256}, {@code mesh-sha512}) allowed to update it. Queries go
 * through Knot's own {@code kdig}. Interop tests use it too, as the DNS server pebble validates against. {@code run-tests} installs both ({@code scripts/install-test-packages.sh});
 * without them the tests that need Knot are skipped and say so.
 */
public final class KnotServer implements AutoCloseable {

    public static final String ZONE = "mesh.test";
    static final Path KNOTD = Path.of("/usr/sbin/knotd");
    static final Path KDIG = Path.of("/usr/bin/kdig");

    private final Process process;
    private final Path folder;
    private final int port;
    private final byte[] sha256Secret;
    private final byte[] sha512Secret;

    private KnotServer(Process process, Path folder, int port, byte[] sha256Secret, byte[] sha512Secret) {
        this.process = process;
        this.folder = folder;
        this.port = port;
        this.sha256Secret = sha256Secret;
        this.sha512Secret = sha512Secret;
    }

    public static boolean available() {
        return Files.isExecutable(KNOTD) && Files.isExecutable(KDIG);
    }

    public static KnotServer start(Path folder) throws IOException, InterruptedException {
        byte[] sha256 = new byte[32];
        byte[] sha512 = new byte[64];
        new java.security.SecureRandom().nextBytes(sha256);
        new java.security.SecureRandom().nextBytes(sha512);
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        Files.createDirectories(folder.resolve("db")); // Knot fails every update when its journal's folder is missing
        Files.writeString(folder.resolve(ZONE + ".zone"), """
                $ORIGIN mesh.test.
                $TTL 60
                @ SOA ns.mesh.test. hostmaster.mesh.test. 1 3600 600 86400 60
                @ NS ns.mesh.test.
                ns A 127.0.0.1
                """);
        Path config = Files.writeString(folder.resolve("knot.conf"), """
                server:
                    rundir: "%1$s"
                    pidfile: "%1$s/knot.pid"
                    listen: 127.0.0.1@%2$d
                database:
                    storage: "%1$s/db"
                key:
                  - id: mesh-sha256
                    algorithm: hmac-sha256
                    secret: %3$s
                  - id: mesh-sha512
                    algorithm: hmac-sha512
                    secret: %4$s
                acl:
                  - id: mesh-update
                    key: [mesh-sha256, mesh-sha512]
                    action: update
                zone:
                  - domain: %5$s
                    storage: "%1$s"
                    file: "%5$s.zone"
                    acl: mesh-update
                log:
                  - target: stderr
                    any: info
                """.formatted(folder, port, Base64.getEncoder().encodeToString(sha256),
                Base64.getEncoder().encodeToString(sha512), ZONE));
        Process process = new ProcessBuilder(KNOTD.toString(), "-c", config.toString())
                .redirectErrorStream(true).redirectOutput(folder.resolve("knotd.log").toFile()).start();
        KnotServer server = new KnotServer(process, folder, port, sha256, sha512);
        try {
            server.awaitReady();
        } catch (IOException | RuntimeException e) {
            server.close();
            throw e;
        }
        return server;
    }

    private void awaitReady() throws IOException, InterruptedException {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(20));
        while (Instant.now().isBefore(deadline)) {
            if (!process.isAlive()) {
                throw new IOException("knotd exited: " + Files.readString(folder.resolve("knotd.log")));
            }
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
                if (!query(ZONE, "SOA").isEmpty()) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            }
            Thread.sleep(100);
        }
        throw new IOException("knotd did not answer within 20 s: " + Files.readString(folder.resolve("knotd.log")));
    }

    public int port() {
        return port;
    }

    /** The secret of {@code mesh-sha256} or {@code mesh-sha512}. */
    public byte[] secret(String algorithm) {
        return algorithm.equals("hmac-sha512") ? sha512Secret.clone() : sha256Secret.clone();
    }

    /** The TXT strings at {@code name} as Knot answers them now, each without its quotes. */
    public List<String> txt(String name) throws IOException, InterruptedException {
        return query(name, "TXT").stream().map(line -> line.replace("\"", "")).toList();
    }

    private List<String> query(String name, String type) throws IOException, InterruptedException {
        Process kdig = new ProcessBuilder(KDIG.toString(), "@127.0.0.1", "-p", String.valueOf(port), "+tcp", "+short",
                "+timeout=2", type, name).redirectErrorStream(true).start();
        String output = new String(kdig.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!kdig.waitFor(10, TimeUnit.SECONDS) || kdig.exitValue() != 0) {
            throw new IOException("kdig " + type + " " + name + " failed: " + output);
        }
        return output.lines().map(String::strip).filter(line -> !line.isEmpty()).toList();
    }

    public String log() throws IOException {
        return Files.readString(folder.resolve("knotd.log"));
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
