package io.meshcontrol.interop;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Debian's HAProxy in front of several instances, running the configuration shipped in docs/examples/haproxy.cfg:
 * the same file, with the process settings of a system service (chroot, user, daemon, syslog, a connection limit
 * whose file descriptors this machine's limit may not allow) changed, one plain loopback port instead of the public
 * binds, and the instances' loopback ports as its servers.
 */
final class Haproxy implements AutoCloseable {

    static final Path BINARY = Path.of("/usr/sbin/haproxy");
    private static final Path EXAMPLE = ClientVersions.repositoryRoot().resolve("docs/examples/haproxy.cfg");
    private static final Path SCRIPT = ClientVersions.repositoryRoot().resolve("scripts/haproxy-on-loopback.sh");

    private final Process process;
    private final int port;

    private Haproxy(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    static boolean installed() {
        return Files.isExecutable(BINARY);
    }

    static Haproxy start(Path folder, int port, List<Integer> instancePorts) throws Exception {
        Files.createDirectories(folder);
        Path config = Files.writeString(folder.resolve("haproxy.cfg"), configuration(folder, port, instancePorts));
        Process process = ChildProcesses.start(new ProcessBuilder(List.of(BINARY.toString(), "-db", "-f",
                config.toString())).redirectErrorStream(true).redirectOutput(folder.resolve("haproxy.log").toFile()));
        Haproxy haproxy = new Haproxy(process, port);
        Instant deadline = Instant.now().plus(Duration.ofSeconds(30));
        while (Instant.now().isBefore(deadline)) {
            if (!process.isAlive()) {
                throw new IllegalStateException("haproxy exited: " + Files.readString(folder.resolve("haproxy.log")));
            }
            try (Socket probe = new Socket()) {
                probe.connect(new InetSocketAddress("127.0.0.1", port), 500);
                return haproxy;
            } catch (IOException notYet) {
                Thread.sleep(100);
            }
        }
        throw new IllegalStateException("haproxy did not listen within 30 s");
    }

    /**
     * The shipped file made to run here by scripts/haproxy-on-loopback.sh (bench/run-ha uses the same), with a
     * connection limit this machine's file limit allows: what it says about balancing, checks and timeouts is kept as
     * written.
     */
    static String configuration(Path folder, int port, List<Integer> instancePorts) throws Exception {
        List<String> command = new ArrayList<>(List.of("bash", SCRIPT.toString(), EXAMPLE.toString(),
                Integer.toString(port), "2000"));
        instancePorts.forEach(instance -> command.add(Integer.toString(instance)));
        Path errors = folder.resolve("haproxy-config.err");
        Process script = new ProcessBuilder(command).redirectError(errors.toFile()).start();
        String text = new String(script.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (script.waitFor() != 0) {
            throw new IllegalStateException(SCRIPT + " failed: " + Files.readString(errors));
        }
        return text;
    }

    int port() {
        return port;
    }

    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    @Override
    public void close() {
        ChildProcesses.stop(process, Duration.ofSeconds(5));
    }
}
