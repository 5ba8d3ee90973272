package io.meshcontrol.server.identity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.address.EgressGuard;
import io.meshcontrol.core.testing.LoopbackHttpServer;
import io.meshcontrol.core.testing.MovableClock;
import io.meshcontrol.relay.map.MapUrlFetcher;
import io.meshcontrol.server.testing.OidcIssuerFixture;
import java.net.http.HttpHeaders;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class OidcIssuersTest {

    private static final EgressGuard LOOPBACK_ALLOWED = new EgressGuard(false, true);
    private static OidcIssuerFixture oidc;

    @BeforeAll
    static void startIssuer() {
        oidc = OidcIssuerFixture.start();
    }

    @AfterAll
    static void stopIssuer() {
        oidc.close();
    }

    private static OidcIssuers verifier(MovableClock clock) {
        return new OidcIssuers(LOOPBACK_ALLOWED, MapUrlFetcher.Resolver.literalsOnly(), clock);
    }

    @Test
    void tokenOfTheIssuerVerifiesWithItsClaims() {
        String token = oidc.signedToken("ci", "repo:acme/app:ref:refs/heads/main", "mesh", Map.of("repository", "acme/app"));
        OidcIssuers.VerifiedToken verified = verifier(MovableClock.running()).verify(oidc.issuer("ci"), token);
        assertEquals("repo:acme/app:ref:refs/heads/main", verified.subject());
        assertEquals(List.of("mesh"), verified.audience());
        assertEquals("acme/app", verified.claimText("repository").orElseThrow());
    }

    @Test
    void tokenFetchedFromTheIssuersTokenEndpointVerifies() {
        String token = oidc.clientCredentialsToken("ci", "workload", "mesh");
        assertEquals("workload", verifier(MovableClock.running()).verify(oidc.issuer("ci"), token).subject());
    }

    @Test
    void anotherIssuersTokenIsRefusedNamingTheIssuer() {
        String token = oidc.signedToken("other", "x", "mesh", Map.of());
        String message = refusal(verifier(MovableClock.running()), oidc.issuer("ci"), token);
        assertTrue(message.contains("issuer is \"" + oidc.issuer("other") + "\""), message);
    }

    @Test
    void tokenSignedWithAnotherKeyOfTheSameIssuerNameIsRefused() throws Exception {
        // Same iss and kid as the real issuer, but signed by a key the issuer never published.
        String real = oidc.signedToken("ci", "x", "mesh", Map.of());
        String kid = SignedJWT.parse(real).getHeader().getKeyID();
        RSAKey forged = new RSAKeyGenerator(2048).keyID(kid).generate();
        String token = sign(forged, oidc.issuer("ci"), Instant.now().plusSeconds(600));
        String message = refusal(verifier(MovableClock.running()), oidc.issuer("ci"), token);
        assertTrue(message.contains("signature does not verify"), message);
    }

    @Test
    void expiryHasOneMinuteOfLeeway() throws Exception {
        String token = oidc.signedToken("ci", "x", "mesh", Map.of(), Duration.ofMinutes(5));
        Instant exp = SignedJWT.parse(token).getJWTClaimsSet().getExpirationTime().toInstant();
        MovableClock clock = MovableClock.running();
        OidcIssuers issuers = verifier(clock);
        clock.advance(Duration.between(Instant.now(), exp.plusSeconds(50)));
        assertEquals("x", issuers.verify(oidc.issuer("ci"), token).subject());
        clock.advance(Duration.ofSeconds(20));
        assertTrue(refusal(issuers, oidc.issuer("ci"), token).contains("expired"));
    }

    @Test
    void notBeforeAndIssuedAtHaveOneMinuteOfLeeway() throws Exception {
        // The test issuer stamps nbf and iat itself, so these tokens come from a key set served here.
        RSAKey key = new RSAKeyGenerator(2048).keyID("k").generate();
        try (LoopbackHttpServer issuer = new LoopbackHttpServer()) {
            String iss = issuer.url("/idp");
            issuer.serve("/idp/.well-known/openid-configuration",
                    "{\"issuer\":\"" + iss + "\",\"jwks_uri\":\"" + issuer.url("/idp/keys") + "\"}");
            issuer.serve("/idp/keys", new JWKSet(key.toPublicJWK()).toString());
            OidcIssuers issuers = verifier(MovableClock.running());
            Instant in30s = Instant.now().plusSeconds(30);
            Instant in90s = Instant.now().plusSeconds(90);
            issuers.verify(iss, sign(key, new JWTClaimsSet.Builder().issuer(iss).notBeforeTime(Date.from(in30s))
                    .issueTime(Date.from(in30s)).expirationTime(Date.from(in90s.plusSeconds(600))).build()));
            assertTrue(refusal(issuers, iss, sign(key, new JWTClaimsSet.Builder().issuer(iss)
                    .notBeforeTime(Date.from(in90s)).expirationTime(Date.from(in90s.plusSeconds(600))).build()))
                    .contains("not valid before"));
            assertTrue(refusal(issuers, iss, sign(key, new JWTClaimsSet.Builder().issuer(iss)
                    .issueTime(Date.from(in90s)).expirationTime(Date.from(in90s.plusSeconds(600))).build()))
                    .contains("issued in the future"));
        }
    }

    @Test
    void rotatedKeyIsFetchedWhenATokenNamesIt() throws Exception {
        RSAKey first = new RSAKeyGenerator(2048).keyID("first").generate();
        RSAKey second = new RSAKeyGenerator(2048).keyID("second").generate();
        try (LoopbackHttpServer issuer = new LoopbackHttpServer()) {
            String iss = issuer.url("/idp");
            issuer.serve("/idp/.well-known/openid-configuration",
                    "{\"issuer\":\"" + iss + "\",\"jwks_uri\":\"" + issuer.url("/idp/keys") + "\"}");
            issuer.serve("/idp/keys", new JWKSet(first.toPublicJWK()).toString());
            MovableClock clock = MovableClock.running();
            OidcIssuers issuers = verifier(clock);
            issuers.verify(iss, sign(first, iss, Instant.now().plusSeconds(600)));

            issuer.serve("/idp/keys", new JWKSet(List.of(first.toPublicJWK(), second.toPublicJWK())).toString());
            clock.advance(OidcIssuers.REFETCH_INTERVAL);
            issuers.verify(iss, sign(second, iss, Instant.now().plusSeconds(600)));
            issuers.verify(iss, sign(first, iss, Instant.now().plusSeconds(600)));
            assertEquals(2, issuer.requestsFor("/idp/keys"));
            assertEquals(2, issuer.requestsFor("/idp/.well-known/openid-configuration"));
        }
    }

    @Test
    void aNewKeyIdInsideTheRefetchIntervalWaitsForTheNextFetchInsteadOfBeingRefused() throws Exception {
        RSAKey first = new RSAKeyGenerator(2048).keyID("first").generate();
        RSAKey second = new RSAKeyGenerator(2048).keyID("second").generate();
        RSAKey madeUp = new RSAKeyGenerator(2048).keyID("made-up").generate();
        try (LoopbackHttpServer issuer = new LoopbackHttpServer()) {
            String iss = servedIssuer(issuer, Map.of(), first);
            MovableClock clock = MovableClock.running();
            List<Duration> waits = new ArrayList<>();
            OidcIssuers issuers = new OidcIssuers(LOOPBACK_ALLOWED, MapUrlFetcher.Resolver.literalsOnly(), clock,
                    wait -> {
                        waits.add(wait);
                        clock.advance(wait);
                    });
            issuers.verify(iss, sign(first, iss, Instant.now().plusSeconds(600)));

            // Anyone may send a made-up key id: it costs one fetch, after the interval, and is refused.
            assertTrue(refusal(issuers, iss, sign(madeUp, iss, Instant.now().plusSeconds(600)))
                    .contains("publishes no key with id made-up"));
            assertEquals(2, issuer.requestsFor("/idp/keys"));

            // The issuer rotates right after: a token of its new key inside the interval waits for the next fetch.
            serveKeys(issuer, Map.of(), first, second);
            assertEquals("x", issuers.verify(iss, sign(second, iss, Instant.now().plusSeconds(600))).subject());
            assertEquals(3, issuer.requestsFor("/idp/keys"));
            assertEquals(2, waits.size(), "each fetch after an earlier one waited: " + waits);
            assertTrue(waits.stream().allMatch(wait -> wait.isPositive()
                    && wait.compareTo(OidcIssuers.REFETCH_INTERVAL) <= 0), waits.toString());
        }
    }

    @Test
    void aKeyTheIssuerWithdrewStopsVerifyingOnceTheKeySetIsStale() throws Exception {
        RSAKey first = new RSAKeyGenerator(2048).keyID("first").generate();
        RSAKey second = new RSAKeyGenerator(2048).keyID("second").generate();
        try (LoopbackHttpServer issuer = new LoopbackHttpServer()) {
            Map<String, String> twoMinutes = Map.of("Cache-Control", "public, max-age=120");
            String iss = servedIssuer(issuer, twoMinutes, first);
            MovableClock clock = MovableClock.running();
            OidcIssuers issuers = verifier(clock);
            String signedByFirst = sign(first, iss, Instant.now().plusSeconds(3600));
            issuers.verify(iss, signedByFirst);

            serveKeys(issuer, twoMinutes, second); // the issuer withdraws the first key
            clock.advance(Duration.ofSeconds(110));
            issuers.verify(iss, signedByFirst);
            assertEquals(1, issuer.requestsFor("/idp/keys"), "within max-age the set is used as fetched");
            clock.advance(Duration.ofSeconds(20));
            assertTrue(refusal(issuers, iss, signedByFirst).contains("publishes no key with id first"));
            assertEquals(2, issuer.requestsFor("/idp/keys"), "fetched once, for this token");
        }
    }

    @Test
    void aKeySetIsUsedForItsMaxAgeWithinBounds() {
        assertEquals(OidcIssuers.KEYS_LONGEST_LIFE, OidcIssuers.lifeOf(headers(Map.of())));
        assertEquals(Duration.ofMinutes(5), OidcIssuers.lifeOf(headers(Map.of("Cache-Control", "public, max-age=300"))));
        assertEquals(OidcIssuers.KEYS_SHORTEST_LIFE, OidcIssuers.lifeOf(headers(Map.of("Cache-Control", "max-age=0"))));
        assertEquals(OidcIssuers.KEYS_LONGEST_LIFE, OidcIssuers.lifeOf(headers(Map.of("Cache-Control",
                "max-age=86400, must-revalidate"))));
    }

    private static HttpHeaders headers(Map<String, String> headers) {
        Map<String, List<String>> lists = new java.util.HashMap<>();
        headers.forEach((name, value) -> lists.put(name, List.of(value)));
        return HttpHeaders.of(lists, (name, value) -> true);
    }

    /** An issuer at {@code /idp} of {@code server} publishing {@code keys}; its issuer URL. */
    private static String servedIssuer(LoopbackHttpServer server, Map<String, String> keyHeaders, RSAKey... keys) {
        String iss = server.url("/idp");
        server.serve("/idp/.well-known/openid-configuration",
                "{\"issuer\":\"" + iss + "\",\"jwks_uri\":\"" + server.url("/idp/keys") + "\"}");
        serveKeys(server, keyHeaders, keys);
        return iss;
    }

    private static void serveKeys(LoopbackHttpServer server, Map<String, String> headers, RSAKey... keys) {
        Map<String, String> all = new java.util.HashMap<>(headers);
        all.put("Content-Type", "application/json");
        String set = new JWKSet(java.util.Arrays.stream(keys).map(key -> (com.nimbusds.jose.jwk.JWK) key.toPublicJWK())
                .toList()).toString();
        server.answer("/idp/keys", new LoopbackHttpServer.Answer(200, all, set.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void loopbackIssuerIsRefusedByTheEgressGuardByDefault() {
        OidcIssuers guarded = new OidcIssuers(EgressGuard.DEFAULT, MapUrlFetcher.Resolver.literalsOnly(),
                MovableClock.running());
        String token = oidc.signedToken("ci", "x", "mesh", Map.of());
        MeshException refused = assertThrows(MeshException.class, () -> guarded.verify(oidc.issuer("ci"), token));
        assertEquals(MeshException.Reason.INVALID, refused.reason());
        assertTrue(refused.getMessage().contains("loopback address"), refused.getMessage());
    }

    @Test
    void textThatIsNoJwtIsRefused() {
        assertTrue(refusal(verifier(MovableClock.running()), oidc.issuer("ci"), "not-a-token").contains("not a signed JWT"));
    }

    private static String refusal(OidcIssuers issuers, String issuer, String token) {
        MeshException refused = assertThrows(MeshException.class, () -> issuers.verify(issuer, token));
        assertEquals(MeshException.Reason.UNAUTHENTICATED, refused.reason(), refused.getMessage());
        return refused.getMessage();
    }

    private static String sign(RSAKey key, String issuer, Instant expiry) throws JOSEException {
        return sign(key, new JWTClaimsSet.Builder().issuer(issuer).subject("x").audience("mesh")
                .expirationTime(Date.from(expiry)).build());
    }

    private static String sign(RSAKey key, JWTClaimsSet claims) throws JOSEException {
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(key.getKeyID()).build(), claims);
        jwt.sign(new RSASSASigner(key));
        return jwt.serialize();
    }
}
