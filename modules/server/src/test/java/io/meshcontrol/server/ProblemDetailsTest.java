package io.meshcontrol.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.server.http.Routes;
import io.meshcontrol.server.testing.TestServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Every /api/v1 error is RFC 7807 problem details with a status, title and a detail naming the problem. */
class ProblemDetailsTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @TempDir
    Path folder;
    TestServer server;

    @BeforeEach
    void start() {
        server = TestServer.start(folder);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void missingCredentialIs401() {
        JsonNode problem = problem(server.request("GET", "/api/v1/user", null, null), 401);
        assertTrue(problem.get("detail").asString().contains("missing credential"));
    }

    @Test
    void unknownCredentialIs401() {
        problem(server.request("GET", "/api/v1/user", "svckey-api-aaaaaaaaaaaa-bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb", null), 401);
    }

    @Test
    void insufficientCredentialIs403AndNamesTheScope() {
        String dnsOnly = server.adminClient().createApiKey(new io.meshcontrol.api.ApiKeyRequest(null, List.of("dns"), "", null)).secret();
        JsonNode problem = problem(server.request("GET", "/api/v1/user", dnsOnly, null), 403);
        assertTrue(problem.get("detail").asString().contains("users:read"), problem.toString());
    }

    @Test
    void unknownUserIs404() {
        problem(server.request("GET", "/api/v1/user?name=nobody", server.localToken(), null), 404);
        problem(server.request("DELETE", "/api/v1/user/999", server.localToken(), null), 404);
    }

    @Test
    void keyExpiryNeedsItsFieldAndAnExistingNode() {
        String path = "/api/v1/node/999/key-expiry";
        JsonNode missing = problem(server.request("POST", path, server.localToken(), "{}"), 400);
        assertTrue(missing.get("detail").asString().contains("\"disabled\""), missing.toString());
        problem(server.request("POST", path, server.localToken(), "{\"disabled\":true}"), 404);
    }

    @Test
    void duplicateNameIs409() {
        server.request("POST", "/api/v1/user", server.localToken(), "{\"name\":\"odin\"}");
        JsonNode problem = problem(server.request("POST", "/api/v1/user", server.localToken(), "{\"name\":\"odin\"}"), 409);
        assertTrue(problem.get("detail").asString().contains("odin"));
    }

    @Test
    void malformedInputIs400AndNamesTheProblem() {
        JsonNode unknownField = problem(server.request("POST", "/api/v1/user", server.localToken(), "{\"nmae\":\"odin\"}"), 400);
        assertTrue(unknownField.get("detail").asString().contains("\"nmae\""), unknownField.toString());
        problem(server.request("POST", "/api/v1/user", server.localToken(), "{not json"), 400);
        JsonNode badRole = problem(server.request("POST", "/api/v1/user", server.localToken(), "{\"name\":\"x\",\"role\":\"boss\"}"), 400);
        assertTrue(badRole.get("detail").asString().contains("unknown role \"boss\""));
        JsonNode badExpiry = problem(server.request("POST", "/api/v1/apikey", server.localToken(), "{\"expiration\":\"90d\"}"), 400);
        assertTrue(badExpiry.get("detail").asString().startsWith("expiration:"), badExpiry.toString());
    }

    @Test
    void malformedJsonIsDescribedByWhatAndWhereWithoutLibraryNames() {
        record Case(String path, String body, String detail) {
        }
        List<Case> cases = List.of(
                new Case("/api/v1/user", "{not json", "the request body is not valid JSON: expected double-quote to "
                        + "start property name (line 1, column 2)"),
                new Case("/api/v1/user", "{\"name\":\"odin\",", "the request body is not valid JSON: it ends before "
                        + "it is complete (line 1, column 16)"),
                new Case("/api/v1/user", "{\n  \"name\": \"odin\",\n  \"role\": [\"admin\"]\n}",
                        "field \"role\" must be a string, not a list (line 3, column 11)"),
                new Case("/api/v1/user", "{\"nmae\":\"odin\"}", "unknown field \"nmae\" in the request body"),
                new Case("/api/v1/user", "[]", "the request body must be an object, not a list (line 1, column 1)"),
                new Case("/api/v1/preauthkey", "{\"user\":\"odin\",\"reusable\":\"maybe\"}",
                        "field \"reusable\" must be a boolean (true or false), not a string (line 1, column 27)"),
                new Case("/api/v1/preauthkey", "{\"tags\":[\"tag:a\",{}]}", "field \"tags[1]\" must be a string, not an object (line 1, column 18)"),
                new Case("/api/v1/preauthkey", "{\"tags\":\"tag:a\"}",
                        "field \"tags\" must be a list of strings, not a string (line 1, column 9)"));
        List<String> details = cases.stream().map(c -> problem(server.request("POST", c.path(), server.localToken(),
                c.body()), 400).get("detail").asString()).toList();
        assertEquals(cases.stream().map(Case::detail).toList(), details);
        for (String detail : details) {
            assertFalse(detail.contains("jackson") || detail.contains("java.") || detail.contains("`")
                    || detail.contains("io.meshcontrol") || detail.contains("Token"), detail);
        }
    }

    /** Issue 21: a null in a list was a 500; a value of another JSON type was coerced; a repeated field won. */
    @Test
    void nullsInListsWrongTypesAndRepeatedFieldsAreRefusedNamingTheField() {
        record Case(String method, String path, String body, String detail) {
        }
        List<Case> cases = List.of(
                new Case("POST", "/api/v1/preauthkey", "{\"user\":\"odin\",\"tags\":[null]}",
                        "field \"tags[0]\" must not be null"),
                new Case("POST", "/api/v1/apikey", "{\"scopes\":[\"users\",null]}",
                        "field \"scopes[1]\" must not be null"),
                new Case("POST", "/api/v1/node/1/tags", "{\"tags\":[null]}",
                        "field \"tags[0]\" must not be null"),
                new Case("POST", "/api/v1/node/1/routes", "{\"routes\":[null]}",
                        "field \"routes[0]\" must not be null"),
                new Case("PUT", "/api/v1/derp", "{\"urls\":[null]}", "field \"urls[0]\" must not be null"),
                new Case("PUT", "/api/v1/derp", "{\"relays\":[null]}",
                        "field \"relays[0]\" must not be null"),
                new Case("PATCH", "/api/v1/settings", "{\"devicesKeyDurationDays\":1.5}",
                        "field \"devicesKeyDurationDays\" must be an integer, not 1.5"),
                new Case("PATCH", "/api/v1/settings", "{\"devicesKeyDurationDays\":\"7\"}",
                        "field \"devicesKeyDurationDays\" must be an integer, not a string"),
                new Case("PATCH", "/api/v1/settings", "{\"devicesApprovalOn\":\"true\"}",
                        "field \"devicesApprovalOn\" must be a boolean (true or false), not a string"),
                new Case("PATCH", "/api/v1/settings", "{\"devicesApprovalOn\":1}",
                        "field \"devicesApprovalOn\" must be a boolean (true or false), not 1"),
                new Case("POST", "/api/v1/user", "{\"name\":12}", "field \"name\" must be a string, not 12"),
                new Case("POST", "/api/v1/user", "{\"name\":\"odin\",\"name\":\"loki\"}",
                        "field \"name\" appears more than once in the request body"),
                new Case("PUT", "/api/v1/derp", "{\"relays\":[{\"regionId\":900,\"regionId\":901}]}",
                        "field \"relays[0].regionId\" appears more than once in the request body"),
                new Case("PUT", "/api/v1/derp", "{\"relays\":[{\"regionId\":900.5}]}",
                        "field \"relays[0].regionId\" must be an integer, not 900.5"),
                new Case("PUT", "/api/v1/derp", "{\"urls\":\"https://maps.example/derp.json\"}",
                        "field \"urls\" must be a list of strings, not a string"),
                new Case("POST", "/api/v1/user", "{\"name\":\"odin\"} {}",
                        "the request body must be one JSON value, with nothing after it"),
                new Case("POST", "/api/v1/apikey", "null", "the request body must be an object, not null"));
        for (Case c : cases) {
            String detail = problem(server.request(c.method(), c.path(), server.localToken(), c.body()), 400)
                    .get("detail").asString();
            assertEquals(c.detail(), detail.replaceFirst(" \\(line \\d+, column \\d+\\)$", ""),
                    c.method() + " " + c.path() + " " + c.body());
        }
        assertEquals(0, JSON.readTree(server.request("GET", "/api/v1/user", server.localToken(), null).body())
                .get("users").size(), "nothing was stored");
        assertEquals(0, JSON.readTree(server.request("GET", "/api/v1/apikey", server.localToken(), null).body())
                .get("apiKeys").size(), "nothing was stored");
    }

    @Test
    void idsAreReadOnlyInTheirCanonicalDecimalForm() {
        String id = server.adminClient().createUser(new io.meshcontrol.api.UserRequest("odin", null, null, null)).id();
        assertEquals("1", id, "the spellings below are all of id 1");
        assertEquals(200, server.request("GET", "/api/v1/user/1", server.localToken(), null).statusCode());
        // Arabic-Indic one, fullwidth one, a plus sign, a leading zero, a space (encoded), beyond the largest id
        for (String spelling : List.of("%D9%A1", "%EF%BC%91", "+1", "01", "%201", "1%20", "-1", "99999999999999999999")) {
            for (String path : List.of("/api/v1/user/", "/api/v1/node/", "/api/v1/preauthkey/")) {
                JsonNode problem = problem(server.request("GET", path + spelling, server.localToken(), null), 400);
                assertTrue(problem.get("detail").asString().startsWith("path parameter id must be a decimal number"),
                        problem.toString());
            }
        }
        assertEquals(404, server.request("GET", "/api/v1/user/0", server.localToken(), null).statusCode(),
                "0 is canonical, and no user has it");
    }

    @Test
    void unknownEndpointAndMethodAreProblemsToo() {
        problem(server.request("GET", "/api/v1/nothing-here", server.localToken(), null), 404);
        HttpResponse<String> wrongMethod = server.request("PUT", "/api/v1/user", server.localToken(), "{}");
        problem(wrongMethod, 405);
        assertEquals("GET, POST", wrongMethod.headers().firstValue("Allow").orElse(""), "RFC 9110: a 405 says what is allowed");
        assertEquals("DELETE, GET, PATCH", server.request("TRACE", "/api/v1/user/1", server.localToken(), null)
                .headers().firstValue("Allow").orElse(""));
        // A fixed path beside a template of another method: "GET /node/bulk" is not node "bulk" (found by fuzzing)
        HttpResponse<String> bulkRead = server.request("GET", "/api/v1/node/bulk", server.localToken(), null);
        problem(bulkRead, 405);
        assertEquals("POST", bulkRead.headers().firstValue("Allow").orElse(""));
    }

    /** Issue 21: Undertow's template matching stops at a decoded '?', so "/node/1%3F/approve" matched "/node/{id}". */
    @Test
    void anEncodedQuestionMarkInAnIdIsNoSuchEndpointNotAWrongMethod() {
        problem(server.request("POST", "/api/v1/node/1%3F/approve", server.localToken(), null), 404);
        problem(server.request("GET", "/api/v1/user/1%3Fx", server.localToken(), null), 404);
        problem(server.request("POST", "/api/v1/apikey/abc%3F/expire", server.localToken(), null), 404);
    }

    @Test
    void oversizedBodyIs413() throws IOException {
        // Over a plain socket, declaring a 5 MiB body and sending only its start: the server answers as soon as the
        // declared length is over the limit and then closes, so an HTTP client still writing the whole body could
        // fail with a broken pipe before reading the answer.
        String answer;
        try (Socket socket = new Socket(server.url().getHost(), server.url().getPort())) {
            socket.setSoTimeout(10_000);
            String head = "POST /api/v1/user HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer " + server.localToken()
                    + "\r\nContent-Type: application/json\r\nContent-Length: " + 5 * 1024 * 1024
                    + "\r\nConnection: close\r\n\r\n{\"name\":\"xxxx";
            socket.getOutputStream().write(head.getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }
        assertTrue(answer.startsWith("HTTP/1.1 413 "), answer);
        assertTrue(answer.toLowerCase(Locale.ROOT).contains("content-type: application/problem+json"), answer);
        JsonNode problem = JSON.readTree(answer.substring(answer.indexOf("\r\n\r\n") + 4));
        assertEquals(413, problem.get("status").asInt());
        assertTrue(problem.hasNonNull("title"));
        assertTrue(problem.hasNonNull("detail"));
    }

    /**
     * Issue 33: a chunked body has no length to refuse up front, so the limit is met while reading it; that is a 413
     * like a declared length over it, on an authenticated route and on those that read the body before anyone is
     * authenticated (token endpoints, console sign-in), and no server error in the log. A request refused before its
     * body is read (no credential) is answered too. The client keeps the connection alive, so the server must not
     * read megabytes to keep it (Undertow then cuts it at its own limit, printing a stack trace).
     */
    @Test
    void aChunkedBodyOverTheLimitIs413WithoutAServerError() throws Exception {
        LogCapture log = LogCapture.onRoot();
        PrintStream stderr = System.err;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        System.setErr(new PrintStream(printed, true, StandardCharsets.UTF_8));
        try {
            for (String[] route : new String[][] {
                    {"/api/v1/user", "Authorization: Bearer " + server.localToken() + "\r\nContent-Type: application/json"},
                    {"/api/v2/oauth/token", "Content-Type: application/x-www-form-urlencoded"},
                    {"/admin/session", "Content-Type: application/json"}}) {
                String answer = chunkedBodyOverTheLimit(route[0], route[1]);
                assertTrue(answer.startsWith("HTTP/1.1 413 "), route[0] + ": " + answer);
                JsonNode error = JSON.readTree(answer.substring(answer.indexOf("\r\n\r\n") + 4));
                if (route[0].startsWith("/api/v2/")) { // the vendor's shape on its API
                    assertTrue(error.get("message").asString().contains("larger than"), answer);
                } else {
                    assertTrue(answer.toLowerCase(Locale.ROOT)
                            .contains("content-type: application/problem+json"), answer);
                    assertEquals(413, error.get("status").asInt(), answer);
                    assertTrue(error.get("detail").asString().contains("larger than"), answer);
                }
            }
            String unauthenticated = chunkedBodyOverTheLimit("/api/v1/user", "Content-Type: application/json");
            assertTrue(unauthenticated.startsWith("HTTP/1.1 401 "), unauthenticated);
        } finally {
            System.setErr(stderr);
            log.close();
        }
        assertEquals(List.of(), log.records.stream().filter(r -> r.getLevel().intValue() >= Level.SEVERE.intValue())
                .map(r -> r.getMessage() + " " + r.getThrown()).toList());
        assertEquals("", printed.toString(StandardCharsets.UTF_8), "nothing printed either");
    }

    /** A chunked POST of twice the limit on a connection kept alive, written while the answer is read. */
    private String chunkedBodyOverTheLimit(String path, String headers) throws Exception {
        try (Socket socket = new Socket(server.url().getHost(), server.url().getPort())) {
            socket.setSoTimeout(10_000);
            Thread writer = Thread.ofVirtual().start(() -> {
                try {
                    var out = socket.getOutputStream();
                    out.write(("POST " + path + " HTTP/1.1\r\nHost: localhost\r\n" + headers
                            + "\r\nTransfer-Encoding: chunked\r\n\r\n")
                            .getBytes(StandardCharsets.US_ASCII));
                    byte[] chunk = new byte[64 * 1024];
                    Arrays.fill(chunk, (byte) 'x');
                    for (long sent = 0; sent <= 2 * Routes.MAX_BODY_BYTES; sent += chunk.length) {
                        out.write((Integer.toHexString(chunk.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
                        out.write(chunk);
                        out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
                    }
                    out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                } catch (IOException e) {
                    // the server may answer and close before the whole body is written: the answer is what counts
                }
            });
            String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            writer.join();
            return answer;
        }
    }

    @Test
    void unexpectedFailureIs500WithAnIdThatFindsTheLogEntry() throws IOException, SQLException {
        LogCapture log = LogCapture.onRoot();
        try {
            // Take the users table away under the running server (its kept connections see the new schema): the
            // next query fails unexpectedly.
            String token = server.localToken();
            try (Connection db = DriverManager.getConnection("jdbc:sqlite:" + server.dataDir.resolve("db.sqlite"));
                    Statement statement = db.createStatement()) {
                statement.execute("ALTER TABLE users RENAME TO users_taken_away");
            }
            JsonNode problem = problem(server.request("GET", "/api/v1/user", token, null), 500);
            String errorId = problem.get("errorId").asString();
            assertTrue(problem.get("detail").asString().contains(errorId));
            assertTrue(log.records.stream().anyMatch(r -> r.getMessage().contains("error id " + errorId)),
                    "the log holds an entry with the id");
        } finally {
            log.close();
        }
    }

    private static JsonNode problem(HttpResponse<String> response, int status) {
        assertEquals(status, response.statusCode(), response.body());
        assertEquals("application/problem+json", response.headers().firstValue("Content-Type").orElse(""));
        JsonNode problem = JSON.readTree(response.body());
        assertEquals(status, problem.get("status").asInt());
        assertTrue(problem.hasNonNull("title"));
        assertTrue(problem.hasNonNull("detail"));
        return problem;
    }

    /** What the server logs while a test runs (other threads log while the test reads it). */
    private static final class LogCapture extends Handler implements AutoCloseable {

        final List<LogRecord> records = new CopyOnWriteArrayList<>();

        static LogCapture onRoot() {
            LogCapture capture = new LogCapture();
            Logger.getLogger("").addHandler(capture);
            return capture;
        }

        @Override
        public void publish(LogRecord record) {
            records.add(record);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
            Logger.getLogger("").removeHandler(this);
        }
    }
}
