package io.meshcontrol.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.api.ApiJson;
import io.meshcontrol.api.MeshClient;
import io.meshcontrol.api.UserRequest;
import io.meshcontrol.server.http.LoggedRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/** {@code log.format: json}: every line {@code svc serve} logs is one JSON object, with the request where there is one. */
class JsonLogServeTest {

    private static final Set<String> LEVELS = Set.of("error", "warn", "info", "debug", "trace");

    @TempDir
    Path folder;
    private Process server;

    @AfterEach
    void stopServer() throws InterruptedException {
        if (server != null && server.isAlive()) {
            server.destroyForcibly();
            server.waitFor(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void everyLineOfAServerRunIsAJsonObjectAndRequestLinesNameTheirRequest() throws Exception {
        Path config = folder.resolve("config.yaml");
        Path credential = folder.resolve("data/cli.json");
        Path log = folder.resolve("serve.log");
        // database.debug logs each statement at debug level on the thread that runs it: lines inside a request.
        Files.writeString(config, """
                listen_addr: 127.0.0.1:0
                metrics_listen_addr: null
                derp:
                  urls: []
                  server:
                    stun_listen_addr: 127.0.0.1:0
                    tls_listen_addr: 127.0.0.1:0
                database:
                  debug: true
                  sqlite:
                    path: %s
                cli:
                  local_credential_path: %s
                log:
                  level: debug
                  format: json
                """.formatted(folder.resolve("data/db.sqlite"), credential));
        server = ServeProcess.start(folder, config, log);
        MeshClient client = ServeProcess.awaitClient(credential, server);
        client.createUser(new UserRequest("alice", null, null, null));
        server.destroy(); // SIGTERM: the shutdown hook logs "stopping" as well
        assertTrue(server.waitFor(60, TimeUnit.SECONDS), "svc serve stopped on SIGTERM");

        List<String> lines = Files.readAllLines(log);
        assertFalse(lines.isEmpty(), "svc serve logged nothing");
        List<JsonNode> entries = lines.stream().map(line -> ApiJson.mapper(false).readTree(line)).toList();
        for (int i = 0; i < entries.size(); i++) {
            JsonNode entry = entries.get(i);
            String line = lines.get(i);
            assertTrue(entry.isObject(), line);
            Instant.parse(entry.get("time").asString());
            assertTrue(LEVELS.contains(entry.get("level").asString()), line);
            assertTrue(entry.get("logger").isString(), line);
            assertTrue(entry.get("message").isString(), line);
        }
        assertTrue(entries.stream().anyMatch(entry -> entry.get("message").asString().startsWith("svc ")
                && entry.get("message").asString().contains(" starting with configuration ")), lines.toString());
        JsonNode request = entries.stream().filter(entry -> entry.has("request")
                        && "/api/v1/user".equals(entry.get("request").get("route").asString())
                        && "POST".equals(entry.get("request").get("method").asString()))
                .findFirst().orElseThrow(() -> new AssertionError("no line names POST /api/v1/user: " + lines))
                .get("request");
        assertEquals("/api/v1/user", request.get("path").asString());
        assertTrue(request.get("client").asString().contains("127.0.0.1"), request.toString());
    }

    @Test
    void theLineOfAFailureCarriesItsErrorIdTheRequestAndTheStackTraceWithClientTextEscaped() {
        // A node name with a bidirectional override, as a client could send it.
        LogRecord record = new LogRecord(Level.SEVERE, "error id abc123def456: GET /api/v1/node failed for \u202eevil");
        record.setLoggerName("io.meshcontrol.server.http.ErrorStage");
        record.setThrown(new IllegalStateException("broken on purpose"));
        String line;
        try (LoggedRequest.Scope scope = LoggedRequest.enter(
                new LoggedRequest("GET", "/api/v1/node", "/api/v1/node", "/127.0.0.1:5000", "abc123def456"))) {
            line = new LogSetup.JsonLine().format(record);
        }
        assertTrue(line.endsWith("}\n") && line.indexOf('\n') == line.length() - 1, line);
        assertFalse(line.contains("\u202e"), "escaped as --output json escapes it: " + line);
        JsonNode entry = ApiJson.mapper(false).readTree(line);
        assertTrue(entry.get("message").asString().endsWith("for \u202eevil"), line);
        assertEquals("error", entry.get("level").asString());
        assertEquals("abc123def456", entry.get("error_id").asString());
        assertEquals("/api/v1/node", entry.get("request").get("route").asString());
        assertTrue(entry.get("error").asString().startsWith("java.lang.IllegalStateException: broken on purpose\n"),
                line);
    }
}
