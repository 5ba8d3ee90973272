package io.meshcontrol.server.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jwt.SignedJWT;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OidcIssuerFixtureTest {

    @Test
    void issuerPublishesDiscoveryAndTokensNameItsSubjectAndAudience() throws Exception {
        try (OidcIssuerFixture oidc = OidcIssuerFixture.start()) {
            String discovery = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(oidc.discoveryUrl("ci")))
                    .build(), HttpResponse.BodyHandlers.ofString()).body();
            assertTrue(discovery.contains("\"" + oidc.issuer("ci") + "\""), discovery);
            assertTrue(discovery.contains("jwks_uri"), discovery);

            SignedJWT fetched = SignedJWT.parse(oidc.clientCredentialsToken("ci", "repo:acme/app", "mesh"));
            assertEquals("repo:acme/app", fetched.getJWTClaimsSet().getSubject());
            assertEquals(List.of("mesh"), fetched.getJWTClaimsSet().getAudience());
            assertEquals(oidc.issuer("ci"), fetched.getJWTClaimsSet().getIssuer());

            SignedJWT signed = SignedJWT.parse(oidc.signedToken("ci", "job", "mesh", Map.of("ref", "main")));
            assertEquals("main", signed.getJWTClaimsSet().getStringClaim("ref"));
        }
    }
}
