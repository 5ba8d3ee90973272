package io.meshcontrol.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.server.testing.TestServer;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 33: 100,000 wrong tokens were all answered 401 at full speed. After ten failed credentials an address is
 * answered 429 with Retry-After on every way a credential comes in; a valid credential from it still passes.
 */
class CredentialBackoffTest {

    private static final String WRONG_KEY = "svckey-api-aaaaaaaaaaaa-bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb";

    @TempDir
    Path folder;

    @Test
    void repeatedFailuresFromOneAddressAre429WithRetryAfterOnTheApisTheTokenEndpointAndSignIn() throws Exception {
        try (TestServer server = TestServer.start(folder)) {
            for (int i = 0; i < 10; i++) {
                assertEquals(401, server.request("GET", "/api/v1/user", WRONG_KEY, null).statusCode());
            }
            HttpResponse<String> v1 = server.request("GET", "/api/v1/user", WRONG_KEY, null);
            assertEquals(429, v1.statusCode(), v1.body());
            assertEquals("1", v1.headers().firstValue("Retry-After").orElseThrow());
            assertTrue(v1.headers().firstValue("Content-Type").orElseThrow().startsWith("application/problem+json"));
            assertTrue(v1.body().contains("too many failed credentials from this address"), v1.body());

            HttpResponse<String> v2 = server.request("GET", "/api/v2/tailnet/-/devices", WRONG_KEY, null);
            assertEquals(429, v2.statusCode(), v2.body());
            assertEquals("2", v2.headers().firstValue("Retry-After").orElseThrow(), "doubling");
            assertTrue(v2.body().startsWith("{\"message\":\"too many failed credentials"), v2.body());

            HttpResponse<String> token = server.request("POST", "/api/v2/oauth/token", null,
                    "grant_type=client_credentials&client_secret=" + WRONG_KEY,
                    Map.of("Content-Type", "application/x-www-form-urlencoded"));
            assertEquals(429, token.statusCode(), token.body());
            HttpResponse<String> signIn = server.request("POST", "/admin/session", null,
                    "{\"apiKey\":\"" + WRONG_KEY + "\"}", Map.of("Content-Type", "application/json"));
            assertEquals(429, signIn.statusCode(), signIn.body());

            assertEquals(200, server.request("GET", "/api/v1/user", server.localToken(), null).statusCode(),
                    "a valid credential from the same address is not slowed");
            assertEquals(401, server.request("GET", "/api/v1/user", null, null).statusCode(),
                    "no credential is no failed credential");

            String metrics = server.scrapeMetrics().body();
            assertTrue(metrics.contains("svc_credential_failures_total{answer=\"refused\"} 10.0"), metrics);
            assertTrue(metrics.contains("svc_credential_failures_total{answer=\"backoff\"} 4.0"), metrics);
        }
    }
}
