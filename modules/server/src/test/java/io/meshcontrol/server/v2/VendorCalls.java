package io.meshcontrol.server.v2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.model.Role;
import io.meshcontrol.core.state.Users;
import io.meshcontrol.server.testing.TestServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Calls to a {@link TestServer}'s {@code /api/v2} the way the vendor's Go client makes them: the API key as the Basic
 * user name with an empty password, {@code Content-Type: application/json} on JSON bodies.
 */
final class VendorCalls {

    static final JsonMapper JSON = JsonMapper.builder().build();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private final TestServer server;
    private final String key;

    private VendorCalls(TestServer server, String key) {
        this.server = server;
        this.key = key;
    }

    /** As an all-access API key. */
    static VendorCalls allAccess(TestServer server) {
        return scoped(server);
    }

    /** As an API key with these scopes (none: all access). */
    static VendorCalls scoped(TestServer server, String... scopes) {
        return new VendorCalls(server, server.network.apiKeys().create(Caller.localAdmin(), null, List.of(scopes),
                "v2 test", null).secret());
    }

    static void createUser(TestServer server, String name, String email) {
        server.network.users().create(Caller.localAdmin(), new Users.NewUser(name, "", email, Role.MEMBER));
    }

    HttpResponse<String> get(String path) {
        return send("GET", path, null, Map.of());
    }

    HttpResponse<String> post(String path, String json) {
        return send("POST", path, json, Map.of("Content-Type", "application/json"));
    }

    HttpResponse<String> patch(String path, String json) {
        return send("PATCH", path, json, Map.of("Content-Type", "application/json"));
    }

    HttpResponse<String> put(String path, String json) {
        return send("PUT", path, json, Map.of("Content-Type", "application/json"));
    }

    HttpResponse<String> delete(String path) {
        return send("DELETE", path, null, Map.of());
    }

    HttpResponse<String> send(String method, String path, String body, Map<String, String> headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(server.url() + "/api/v2" + path))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body))
                .header("Authorization", "Basic " + Base64.getEncoder().encodeToString(
                        (key + ":").getBytes(StandardCharsets.UTF_8)));
        headers.forEach(request::header);
        try {
            return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The JSON body of a 200 answer. */
    static JsonNode ok(HttpResponse<String> response) {
        assertEquals(200, response.statusCode(), response.body());
        assertTrue(response.headers().firstValue("Content-Type").orElse("").startsWith("application/json"),
                "a JSON body, which the Go client decodes: " + response.headers());
        return JSON.readTree(response.body());
    }

    /** A refusal in the vendor's shape: {@code status} and a {@code message} containing {@code expected}. */
    static void refused(HttpResponse<String> response, int status, String expected) {
        assertEquals(status, response.statusCode(), response.body());
        String message = JSON.readTree(response.body()).path("message").asString();
        assertTrue(message.contains(expected), "message \"" + message + "\" should say " + expected);
    }
}
