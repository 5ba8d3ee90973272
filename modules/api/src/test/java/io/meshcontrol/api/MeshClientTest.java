package io.meshcontrol.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The v1 client against a tiny JDK HTTP server that answers what each test sets and records what it was sent. */
class MeshClientTest {

    /** One canned answer. */
    record Answer(int status, String contentType, String body, Map<String, String> headers) {
        static Answer json(int status, String body) {
            return new Answer(status, "application/json", body, Map.of());
        }
    }

    /** One request as the server saw it. */
    record Seen(String method, String path, String query, Map<String, String> headers, String body) {
    }

    private HttpServer http;
    private final Map<String, Answer> answers = new ConcurrentHashMap<>();
    private final List<Seen> seen = new CopyOnWriteArrayList<>();
    private final List<String> warnings = new ArrayList<>();

    @BeforeEach
    void start() throws IOException {
        http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        http.createContext("/", this::answer);
        http.start();
    }

    @AfterEach
    void stop() {
        http.stop(0);
    }

    private void answer(HttpExchange exchange) throws IOException {
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        Map<String, String> headers = new ConcurrentHashMap<>();
        exchange.getRequestHeaders().forEach((name, values) -> headers.put(name.toLowerCase(), values.getFirst()));
        URI uri = exchange.getRequestURI();
        seen.add(new Seen(exchange.getRequestMethod(), uri.getRawPath(), uri.getRawQuery(), headers, body));
        Answer answer = answers.getOrDefault(uri.getRawPath(), new Answer(404, "text/plain", "not found", Map.of()));
        exchange.getResponseHeaders().add("Content-Type", answer.contentType());
        answer.headers().forEach(exchange.getResponseHeaders()::add);
        byte[] bytes = answer.body().getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(answer.status(), bytes.length == 0 ? -1 : bytes.length);
        exchange.getResponseBody().write(bytes);
        exchange.close();
    }

    private URI base(String prefix) {
        return URI.create("http://127.0.0.1:" + http.getAddress().getPort() + prefix);
    }

    private MeshClient client(String prefix, String token) {
        return new MeshClient(base(prefix), token, false, "1.0.0", warnings::add);
    }

    @Test
    void requestsGoBelowTheBaseUrlWithTheTokenAndAJsonBody() {
        answers.put("/mesh/api/v1/user", Answer.json(200,
                "{\"id\":\"1\",\"name\":\"odin\",\"role\":\"admin\",\"createdAt\":\"2026-01-01T00:00:00Z\"}"));
        UserView created = client("/mesh", "svckey-api-x").createUser(new UserRequest("odin", null, null, "admin"));
        assertEquals("odin", created.name());
        Seen request = seen.getFirst();
        assertEquals("POST", request.method());
        assertEquals("/mesh/api/v1/user", request.path(), "a path prefix of the base URL is kept");
        assertEquals("Bearer svckey-api-x", request.headers().get("authorization"));
        assertEquals("application/json", request.headers().get("content-type"));
        assertEquals("{\"name\":\"odin\",\"role\":\"admin\"}", request.body(), "nulls are left out");
    }

    @Test
    void namesAndIdsAreEncodedInPathsAndQueries() {
        answers.put("/api/v1/user", Answer.json(200, "{\"users\":[{\"id\":\"2\",\"name\":\"a b&c\"}]}"));
        answers.put("/api/v1/node/a%20b/rename", Answer.json(200, "{\"id\":\"3\",\"name\":\"x\"}"));
        MeshClient client = client("", null);
        assertEquals("a b&c", client.user("a b&c").name());
        assertEquals("name=a+b%26c", seen.getFirst().query());
        assertNull(seen.getFirst().headers().get("authorization"), "no credential, no header");
        client.renameNode("a b", "x");
        assertEquals("/api/v1/node/a%20b/rename", seen.getLast().path());
    }

    @Test
    void aProblemBodyBecomesAnApiExceptionWithItsDetail() {
        answers.put("/api/v1/node/9", new Answer(404, Problem.MEDIA_TYPE,
                "{\"type\":\"about:blank\",\"title\":\"Not Found\",\"status\":404,\"detail\":\"no node 9\"}", Map.of()));
        ApiException refused = assertThrows(ApiException.class, () -> client("", "t").node("9"));
        assertEquals(404, refused.status());
        assertEquals("no node 9", refused.getMessage());
        assertEquals("Not Found", refused.problem().title());
    }

    @Test
    void anErrorWithoutAProblemBodyIsDescribedByItsStatus() {
        answers.put("/api/v1/node", new Answer(502, "text/html", "<html>bad gateway</html>", Map.of()));
        ApiException refused = assertThrows(ApiException.class, () -> client("", "t").nodes());
        assertEquals(502, refused.status());
        assertEquals("the server answered 502 for /api/v1/node", refused.getMessage());
    }

    @Test
    void somethingThatIsNotTheApiIsReportedAsSuch() {
        answers.put("/api/v1/server", new Answer(200, "text/html", "<html>welcome</html>", Map.of()));
        ServerUnreachableException wrong = assertThrows(ServerUnreachableException.class,
                () -> client("", "t").server());
        assertTrue(wrong.getMessage().contains("with something that is not this API"), wrong.getMessage());
    }

    @Test
    void aClientWithATokenSendsItToTheSameServerTheOtherStillSendsNone() {
        answers.put("/api/v1/user", Answer.json(200, "{\"users\":[]}"));
        MeshClient anonymous = client("", null);
        MeshClient withToken = anonymous.withToken("secret", warnings::add);
        withToken.users();
        anonymous.users();
        assertEquals("Bearer secret", seen.get(0).headers().get("authorization"));
        assertNull(seen.get(1).headers().get("authorization"));
        assertEquals(base("/"), withToken.baseUrl());
    }

    @Test
    void aClosedClientAndTheClientsMadeFromItSendNothingMore() {
        answers.put("/api/v1/user", Answer.json(200, "{\"users\":[]}"));
        MeshClient client = client("", "t");
        MeshClient withToken = client.withToken("other", warnings::add);
        client.users();
        client.close();
        assertThrows(RuntimeException.class, withToken::users);
        assertThrows(RuntimeException.class, client::users);
        assertEquals(1, seen.size());
    }

    @Test
    void aPlainHttpServerIsNeverLeftForTls() {
        // An http:// client is built with an SSLContext that trusts nothing (no trust store read at start-up); it
        // relies on the client following no redirect, e.g. to an https:// address.
        answers.put("/api/v1/user",
                new Answer(302, "text/plain", "", Map.of("Location", "https://127.0.0.1:1/api/v1/user")));
        assertThrows(RuntimeException.class, client("", "t")::users);
        assertEquals(1, seen.size());
    }

    @Test
    void anUnreachableServerIsNamed() {
        URI closed = base("");
        http.stop(0);
        MeshClient client = new MeshClient(closed, "t", false, "1.0.0", warnings::add);
        ServerUnreachableException down = assertThrows(ServerUnreachableException.class, client::users);
        assertTrue(down.getMessage().startsWith("cannot reach the server at " + closed + "/"), down.getMessage());
    }

    @Test
    void aServerThatDoesNotAnswerWithinTheTimeoutIsNamedWithIt() throws IOException {
        // Connections are accepted (by the backlog) and never answered.
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            URI base = URI.create("http://127.0.0.1:" + silent.getLocalPort());
            MeshClient client = new MeshClient(base, "t", false, "1.0.0", warnings::add, Duration.ofMillis(300));
            ServerUnreachableException late = assertThrows(ServerUnreachableException.class, client::users);
            assertEquals("the server at " + base + "/ did not answer within 300ms (the timeout, cli.timeout for the CLI)",
                    late.getMessage());
        }
    }

    @Test
    void etagsComeBackAndIfMatchIsSent() {
        answers.put("/api/v1/derp", new Answer(200, "application/json", "{\"urls\":[],\"relays\":[]}",
                Map.of("ETag", "\"v1\"")));
        MeshClient client = client("", "t");
        Tagged<DerpSettingsView> read = client.derp();
        assertEquals("\"v1\"", read.etag());
        client.setDerp(read.value(), read.etag());
        assertEquals("PUT", seen.getLast().method());
        assertEquals("\"v1\"", seen.getLast().headers().get("if-match"));
    }

    @Test
    void anotherServerVersionIsReportedOnce() {
        answers.put("/api/v1/user", new Answer(200, "application/json", "{\"users\":[]}",
                Map.of(MeshClient.VERSION_HEADER, "2.0.0")));
        MeshClient client = client("", "t");
        client.users();
        client.users();
        assertEquals(List.of("svc 1.0.0 is talking to a server of version 2.0.0; use the same version on both sides"),
                warnings);
    }

    @Test
    void anEmptyAnswerIsNoValue() {
        answers.put("/api/v1/user/5", new Answer(204, "application/json", "", Map.of()));
        client("", "t").deleteUser("5");
        assertEquals("DELETE", seen.getLast().method());
    }
}
