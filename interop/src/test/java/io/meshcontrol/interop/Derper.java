package io.meshcontrol.interop;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.HttpURLConnection;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The vendor's own {@code derper}, on loopback over plain HTTP, as the relay for client tests until the
 * embedded relay exists. Clients reach it with {@code TS_DEBUG_USE_DERP_HTTP=1}.
 */
public final class Derper implements AutoCloseable {

    public static final int REGION_ID = 900;

    private final Process process;
    private final int derpPort;
    private final int stunPort;

    private final String host;

    private Derper(Process process, String host, int derpPort, int stunPort) {
        this.host = host;
        this.process = process;
        this.derpPort = derpPort;
        this.stunPort = stunPort;
    }

    public static Derper start(ClientBinaries binaries, Path workDir, String... extraArgs)
            throws IOException, InterruptedException {
        return startOn("127.0.0.1", binaries, workDir, extraArgs);
    }

    /** The relay on another address of this host (a network namespace's link, for nodes inside it). */
    public static Derper startOn(String host, ClientBinaries binaries, Path workDir, String... extraArgs)
            throws IOException, InterruptedException {
        return startOn(host, binaries, workDir, java.util.Map.of(), extraArgs);
    }

    /** The relay with more environment ({@code TS_DEBUG_USE_DERP_HTTP=1} makes its mesh links dial plain HTTP). */
    public static Derper startOn(String host, ClientBinaries binaries, Path workDir,
            java.util.Map<String, String> environment, String... extraArgs) throws IOException, InterruptedException {
        int derpPort = freeTcpPort();
        int stunPort = freeUdpPort();
        Files.createDirectories(workDir);
        List<String> command = new java.util.ArrayList<>(List.of(binaries.derper().toString(),
                "-a", host + ":" + derpPort, "-http-port", "-1", "-stun-port", Integer.toString(stunPort),
                "-hostname", host, "-c", workDir.resolve("derper.key").toString()));
        command.addAll(List.of(extraArgs));
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(workDir.resolve("derper.log").toFile());
        builder.environment().putAll(environment);
        Process process = ChildProcesses.start(builder);
        Derper derper = new Derper(process, host, derpPort, stunPort);
        derper.awaitReady(workDir);
        return derper;
    }

    /** Where the relay listens (plain HTTP). */
    public java.net.InetSocketAddress address() {
        return new java.net.InetSocketAddress(host, derpPort);
    }

    /** The UDP port STUN answers on. */
    public int stunPort() {
        return stunPort;
    }

    /** The relay map (vendor JSON shape) naming this relay as region 900. */
    public String derpMapJson() {
        return """
                {"Regions":{"%d":{"RegionID":%d,"RegionCode":"test","RegionName":"Loopback relay","Nodes":[
                  {"Name":"%da","RegionID":%d,"HostName":"%s","IPv4":"%s","IPv6":"none",
                   "STUNPort":%d,"DERPPort":%d,"InsecureForTests":true}]}}}
                """.formatted(REGION_ID, REGION_ID, REGION_ID, REGION_ID, host, host, stunPort, derpPort);
    }

    private void awaitReady(Path workDir) throws IOException, InterruptedException {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(30));
        while (Instant.now().isBefore(deadline)) {
            if (!process.isAlive()) {
                throw new IllegalStateException("derper exited: " + Files.readString(workDir.resolve("derper.log")));
            }
            try {
                HttpURLConnection probe = (HttpURLConnection) URI.create("http://" + host + ":" + derpPort + "/derp/probe")
                        .toURL().openConnection();
                probe.setConnectTimeout(500);
                if (probe.getResponseCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // still starting
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException("derper did not answer /derp/probe within 30 s");
    }

    private static int freeTcpPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static int freeUdpPort() throws IOException {
        try (DatagramSocket socket = new DatagramSocket(0)) {
            return socket.getLocalPort();
        }
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(5, java.util.concurrent.TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
