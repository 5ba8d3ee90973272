package io.meshcontrol.server.testing;

import com.nimbusds.oauth2.sdk.TokenRequest;
import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import no.nav.security.mock.oauth2.MockOAuth2Server;
import no.nav.security.mock.oauth2.OAuth2Config;
import no.nav.security.mock.oauth2.token.DefaultOAuth2TokenCallback;
import no.nav.security.mock.oauth2.token.OAuth2TokenCallback;
import okhttp3.HttpUrl;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A real OIDC issuer on loopback for tests: {@code mock-oauth2-server} (Maven Central), run in the test's JVM. It
 * publishes a discovery document and a JWKS, signs ID tokens with its own key, and serves the authorization code
 * flow with a login form. Each issuer path ({@link #issuer(String)}) is an issuer of its own, with its own keys.
 *
 * <pre>{@code
 * try (OidcIssuerFixture oidc = OidcIssuerFixture.start()) {
 *     String issuer = oidc.issuer("ci");                 // http://127.0.0.1:<port>/ci
 *     String jwt = oidc.clientCredentialsToken("ci", "repo:acme/app", "svc-audience");
 * }
 * }</pre>
 *
 * The server under test must run with {@code egress.allow_loopback_targets} to fetch from it.
 */
public final class OidcIssuerFixture implements AutoCloseable {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private final MockOAuth2Server server;
    private final HttpClient http = HttpClient.newHttpClient();

    private OidcIssuerFixture(MockOAuth2Server server) {
        this.server = server;
    }

    /** Starts an issuer on a free loopback port. */
    public static OidcIssuerFixture start() {
        MockOAuth2Server server = new MockOAuth2Server();
        server.start(InetAddress.getLoopbackAddress(), 0);
        return new OidcIssuerFixture(server);
    }

    /**
     * Starts an issuer whose authorization endpoint shows a login form (a {@code username}, which becomes the ID
     * token's {@code sub}, and optional {@code claims} as JSON), for tests that log a person in through a browser.
     */
    public static OidcIssuerFixture startWithLoginForm() {
        MockOAuth2Server server = new MockOAuth2Server(new OAuth2Config(true));
        server.start(InetAddress.getLoopbackAddress(), 0);
        return new OidcIssuerFixture(server);
    }

    /**
     * The issuer URL of {@code issuerId}, as its discovery document and its tokens name it (no trailing slash). It
     * is written with the address 127.0.0.1, not a name: test servers resolve no names, and this issuer names itself
     * after the host its callers used.
     */
    public String issuer(String issuerId) {
        return "http://127.0.0.1:" + server.baseUrl().port() + "/" + issuerId;
    }

    /** {@code <issuer>/.well-known/openid-configuration}. */
    public String discoveryUrl(String issuerId) {
        return issuer(issuerId) + "/.well-known/openid-configuration";
    }

    /** The token endpoint of {@code issuerId}. */
    public String tokenEndpoint(String issuerId) {
        return issuer(issuerId) + "/token";
    }

    /**
     * A token signed by the issuer's key, with {@code iss}, {@code sub}, {@code aud}, {@code iat}, {@code nbf},
     * {@code exp} ({@code lifetime} on) and {@code claims}, which may also override the standard ones.
     */
    public String signedToken(String issuerId, String subject, String audience, Map<String, Object> claims,
            Duration lifetime) {
        Map<String, Object> all = new HashMap<>();
        all.put("sub", subject);
        all.put("aud", audience);
        all.putAll(claims);
        return server.anyToken(HttpUrl.get(issuer(issuerId)), all, lifetime).serialize();
    }

    /** {@link #signedToken(String, String, String, Map, Duration)} valid for an hour. */
    public String signedToken(String issuerId, String subject, String audience, Map<String, Object> claims) {
        return signedToken(issuerId, subject, audience, claims, Duration.ofHours(1));
    }

    /**
     * An ID token fetched over HTTP from the issuer's token endpoint, the way a CI runner asks its platform for one:
     * the client-credentials grant, with {@code subject} as client id (the issuer makes it the {@code sub}) and
     * {@code audience} as scope (which it makes the {@code aud}).
     */
    public String clientCredentialsToken(String issuerId, String subject, String audience) {
        String form = "grant_type=client_credentials&client_id=" + encode(subject) + "&client_secret=secret"
                + "&scope=" + encode(audience); // this issuer makes the requested scope the token's audience
        HttpRequest request = HttpRequest.newBuilder(URI.create(tokenEndpoint(issuerId)))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form)).build();
        try {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalStateException("issuer answered " + response.statusCode() + ": " + response.body());
            }
            JsonNode body = JSON.readTree(response.body());
            return body.get("access_token").asString();
        } catch (IOException e) {
            throw new IllegalStateException("cannot reach the test issuer", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * Makes the next login at {@code issuerId} give {@code claims} only at the userinfo endpoint, as OIDC allows: its
     * ID token lacks them, its access token (which this issuer's userinfo endpoint answers with) carries them. Log in
     * through the form without claims of its own, which would go into both tokens.
     */
    public void nextLoginGivesClaimsOnlyAtUserInfo(String issuerId, Map<String, Object> claims) {
        server.enqueueCallback(new ClaimsOnlyAtUserInfo(new DefaultOAuth2TokenCallback(issuerId), claims));
    }

    /** The issuer builds a login's ID token first, then its access token, each asking for its claims once. */
    private static final class ClaimsOnlyAtUserInfo implements OAuth2TokenCallback {
        private final OAuth2TokenCallback defaults;
        private final Map<String, Object> claims;
        private final AtomicInteger asked = new AtomicInteger();

        ClaimsOnlyAtUserInfo(OAuth2TokenCallback defaults, Map<String, Object> claims) {
            this.defaults = defaults;
            this.claims = Map.copyOf(claims);
        }

        @Override
        public String issuerId() {
            return defaults.issuerId();
        }

        @Override
        public String subject(TokenRequest request) {
            return defaults.subject(request);
        }

        @Override
        public String typeHeader(TokenRequest request) {
            return defaults.typeHeader(request);
        }

        @Override
        public List<String> audience(TokenRequest request) {
            return defaults.audience(request);
        }

        @Override
        public Map<String, Object> addClaims(TokenRequest request) {
            return asked.getAndIncrement() == 0 ? Map.of() : claims;
        }

        @Override
        public long tokenExpiry() {
            return defaults.tokenExpiry();
        }
    }

    /** The underlying server, for what this fixture does not offer (login form behaviour, callbacks). */
    public MockOAuth2Server server() {
        return server;
    }

    private static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        server.shutdown();
    }
}
