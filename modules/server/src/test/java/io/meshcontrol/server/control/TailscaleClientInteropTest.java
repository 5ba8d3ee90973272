package io.meshcontrol.server.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.meshcontrol.core.BuildInfo;
import io.meshcontrol.core.testing.GoCheckPrograms;
import io.meshcontrol.server.testing.TestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * Our ts2021 transport against Tailscale's own client code, through {@code interop/ts2021check} (Go, linking
 * {@code tailscale.com/control/ts2021}, {@code controlhttp} and {@code tsp} at v1.102.5): the server key from
 * {@code /key}, the HTTP upgrade, Noise, HTTP/2 with prior knowledge, then a 1 MiB echo, concurrent requests on one
 * connection, a long poll whose messages must arrive one by one, a 404, an old client without early payload, and a
 * client too old for Noise, which must see our error frame as the server's error.
 *
 * <p>Needs Go on the PATH (and the Go module proxy the first time). Runs only when asked:
 *
 * <pre>
 * ./mvnw -B -q -pl modules/server -am verify -Dsvc.interop=true -Dtest=TailscaleClientInteropTest \
 *     -Dsurefire.failIfNoSpecifiedTests=false
 * </pre>
 *
 * Add {@code -Dsvc.interop.longPoll=65s} to make the streamed response pause that long between its three messages:
 * longer than the main listener's 60-second idle timeout for HTTP/1.1 requests, which must not touch an upgraded
 * connection. (The quick tests in {@code ControlTimeoutsTest} squeeze the same check into seconds.)
 *
 * <p>The program is built with {@code go build} into the test's folder and then run, rather than {@code go run}: a
 * destroyed {@code go run} leaves the compiled child running.
 */
@EnabledIfSystemProperty(named = "svc.interop", matches = "true")
class TailscaleClientInteropTest {

    @TempDir
    Path folder;

    @Test
    void tailscalesClientTalksHttp2OverNoiseToOurServer() throws Exception {
        Path program = GoCheckPrograms.build("ts2021check", folder);
        try (TestServer server = TestServer.start(folder.resolve("server"), BuildInfo.version());
                LogCapture log = new LogCapture()) {
            MachineTestEndpoints.register(server.server.machineRoutes());
            Path stdout = folder.resolve("stdout");
            Path stderr = folder.resolve("stderr");
            List<String> command = new ArrayList<>(List.of(program.toString(), "-url", server.url().toString()));
            String longPoll = System.getProperty("svc.interop.longPoll", "");
            if (!longPoll.isBlank()) {
                command.addAll(List.of("-stream-chunks", "3", "-stream-pause", longPoll, "-timeout", "10m"));
            }
            Process go = new ProcessBuilder(command)
                    .redirectOutput(stdout.toFile())
                    .redirectError(stderr.toFile())
                    .start();
            if (!go.waitFor(11, TimeUnit.MINUTES)) {
                go.destroyForcibly();
                fail("ts2021check did not finish in time");
            }
            String output = Files.readString(stdout);
            System.out.print(output);
            assertEquals(0, go.exitValue(), "ts2021check failed:\n" + output + Files.readString(stderr));

            Map<String, String> report = GoCheckPrograms.report(output);
            assertEquals(server.server.noisePublicKey().toText(), report.get("server-key"));
            assertEquals(server.server.noisePublicKey().toText(), report.get("key-document-ok"));
            assertTrue(report.get("early-payload-challenge").startsWith("chalpub:"));
            assertEquals("32", report.get("concurrent-ok"));
            assertEquals("1", report.get("connections"), "everything shared one Noise connection");
            assertEquals("404", report.get("unknown-path-status"));
            assertEquals("48", report.get("old-client-ok"));
            assertTrue(report.get("refused-client-error").contains("server error: \"unsupported protocol version\""));
            List<String> warnings = log.lines().stream().filter(line -> !line.startsWith("INFO ")).toList();
            assertEquals(1, warnings.size(), "only the refused client is worth a warning: " + warnings);
            assertTrue(warnings.getFirst().contains("protocol version 1 is older than 28"), warnings.getFirst());
        }
    }
}
