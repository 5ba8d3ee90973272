package io.meshcontrol.server.identity;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSVerifier;
import com.nimbusds.jose.crypto.factories.DefaultJWSVerifierFactory;
import com.nimbusds.jose.jwk.AsymmetricJWK;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.KeyUse;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.address.EgressGuard;
import io.meshcontrol.relay.map.MapUrlFetcher;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.URI;
import java.net.URLEncoder;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.Key;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Verifies ID tokens of OIDC issuers: the issuer's discovery document names its JWKS, whose keys are cached per
 * issuer for their {@code max-age} (within bounds, so that withdrawn keys stop verifying) and fetched again when a
 * token names a key id the cache lacks (the issuer rotated its keys; docs/oidc-login.md). A token passes
 * when it is signed with an asymmetric algorithm by one of the issuer's keys, names the issuer as {@code iss}, and is
 * within its {@code exp}, {@code nbf} and {@code iat} with {@link #LEEWAY} of clock difference. Audience, subject and
 * other claims are the caller's to check.
 *
 * <p>Issuer and JWKS URLs are outgoing requests: their hosts' resolved addresses must pass the {@link EgressGuard}.
 * As with DERP map URLs, the HTTP client resolves the name once more when it connects; a DNS answer that changes in
 * between is not caught, and only public keys are read from the answer.
 */
public final class OidcIssuers {

    /** The spec's clock leeway for federated tokens; also used for OIDC login. */
    public static final Duration LEEWAY = Duration.ofMinutes(1);
    /** Discovery documents and key sets are small; anything bigger is refused. */
    static final int MAX_DOCUMENT_BYTES = 512 * 1024;
    /**
     * A token naming a key the cached set lacks fetches the key set again, at most this often per issuer: a token
     * inside the interval waits for its end (one fetch then serves every waiting token), so a made-up key id delays
     * verification but never gets a real new key refused.
     */
    static final Duration REFETCH_INTERVAL = Duration.ofSeconds(10);
    /**
     * A key set is used for as long as its {@code Cache-Control: max-age} says, within these bounds (the longest also
     * without the header); then it is fetched again before the next token is verified, so a key the issuer withdrew
     * stops being trusted within that time.
     */
    static final Duration KEYS_SHORTEST_LIFE = Duration.ofMinutes(1);
    static final Duration KEYS_LONGEST_LIFE = Duration.ofHours(1);
    private static final Pattern MAX_AGE = Pattern.compile("(?i)(?:^|[,\\s])max-age\\s*=\\s*\"?(\\d{1,10})");
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final List<JWSAlgorithm> ALLOWED = List.of(JWSAlgorithm.RS256, JWSAlgorithm.RS384,
            JWSAlgorithm.RS512, JWSAlgorithm.PS256, JWSAlgorithm.PS384, JWSAlgorithm.PS512, JWSAlgorithm.ES256,
            JWSAlgorithm.ES384, JWSAlgorithm.ES512, JWSAlgorithm.EdDSA, JWSAlgorithm.Ed25519);

    /** A token that passed: its claims as the issuer wrote them ({@code aud} may be a string or a list). */
    public record VerifiedToken(String issuer, String subject, List<String> audience, Map<String, Object> claims) {

        public VerifiedToken {
            audience = List.copyOf(audience);
            claims = Map.copyOf(claims);
        }

        /** A claim as text: strings as they are, other values (numbers, booleans) in their JSON form. */
        public Optional<String> claimText(String name) {
            Object value = claims.get(name);
            return value == null ? Optional.empty() : Optional.of(value instanceof String s ? s : String.valueOf(value));
        }
    }

    /** What the issuer published: its discovery document (all fields) and its key set, and until when to use it. */
    private record IssuerKeys(JsonNode discovery, JWKSet keys, Instant fetchedAt, Instant staleAt) {
    }

    /** An answer's body, with its headers. */
    private record Fetched(byte[] body, HttpHeaders headers) {
    }

    /** How a request waits for the end of {@link #REFETCH_INTERVAL}; tests move their clock instead. */
    interface Pause {
        void pause(Duration duration) throws InterruptedException;
    }

    private final EgressGuard guard;
    private final MapUrlFetcher.Resolver resolver;
    private final Clock clock;
    private final JsonMapper json = JsonMapper.builder().build();
    private final Map<String, IssuerKeys> cache = new ConcurrentHashMap<>();
    /** One fetch of an issuer's keys at a time; others wait for it and use what it fetched. */
    private final Map<String, ReentrantLock> fetching = new ConcurrentHashMap<>();
    private final Pause pause;
    private final HttpClient http = HttpClient.newBuilder()
            .followRedirects(HttpClient.Redirect.NEVER)
            .connectTimeout(TIMEOUT)
            .build();

    public OidcIssuers(EgressGuard guard, MapUrlFetcher.Resolver resolver, Clock clock) {
        this(guard, resolver, clock, duration -> Thread.sleep(duration));
    }

    OidcIssuers(EgressGuard guard, MapUrlFetcher.Resolver resolver, Clock clock, Pause pause) {
        this.guard = guard;
        this.resolver = resolver;
        this.clock = clock;
        this.pause = pause;
    }

    /**
     * The issuer's discovery document ({@code authorization_endpoint}, {@code token_endpoint}, ...), fetched once and
     * cached with its keys.
     */
    public JsonNode discovery(String issuer) {
        return keysOf(issuer).discovery();
    }

    /**
     * Verifies {@code idToken} as issued by {@code issuer}.
     *
     * @throws MeshException (unauthenticated) naming why the token is refused, or (invalid) when the issuer cannot
     *                       be reached or is not a usable OIDC issuer
     */
    public VerifiedToken verify(String issuer, String idToken) {
        SignedJWT jwt;
        JWTClaimsSet claims;
        try {
            jwt = SignedJWT.parse(idToken == null ? "" : idToken.trim());
            claims = jwt.getJWTClaimsSet();
        } catch (ParseException e) {
            throw refused("the token is not a signed JWT (" + e.getMessage() + ")");
        }
        JWSHeader header = jwt.getHeader();
        if (!ALLOWED.contains(header.getAlgorithm())) {
            throw refused("the token is signed with " + header.getAlgorithm() + "; only asymmetric algorithms are accepted");
        }
        if (!issuer.equals(claims.getIssuer())) {
            throw refused("the token's issuer is \"" + claims.getIssuer() + "\", expected \"" + issuer + "\"");
        }
        if (!verifiedBy(keyFor(issuer, header), jwt)) {
            throw refused("the token's signature does not verify with the issuer's key " + header.getKeyID());
        }
        checkTimes(claims);
        return new VerifiedToken(claims.getIssuer(), claims.getSubject(),
                claims.getAudience() == null ? List.of() : claims.getAudience(), claims.getClaims());
    }

    private void checkTimes(JWTClaimsSet claims) {
        Instant now = clock.instant();
        Date exp = claims.getExpirationTime();
        if (exp == null) {
            throw refused("the token has no expiry (exp)");
        }
        if (now.isAfter(exp.toInstant().plus(LEEWAY))) {
            throw refused("the token expired at " + exp.toInstant() + " (now " + now + ", leeway " + LEEWAY.toSeconds() + " s)");
        }
        Date nbf = claims.getNotBeforeTime();
        if (nbf != null && now.plus(LEEWAY).isBefore(nbf.toInstant())) {
            throw refused("the token is not valid before " + nbf.toInstant() + " (now " + now + ")");
        }
        Date iat = claims.getIssueTime();
        if (iat != null && now.plus(LEEWAY).isBefore(iat.toInstant())) {
            throw refused("the token was issued in the future, at " + iat.toInstant() + " (now " + now + ")");
        }
    }

    /**
     * The key the header names, from a key set that is not stale. A key id the set lacks (the issuer rotated its keys)
     * fetches the set again, unless it was fetched for this very token, waiting for the end of
     * {@link #REFETCH_INTERVAL} when the last fetch was more recent.
     */
    private JWK keyFor(String issuer, JWSHeader header) {
        Instant asked = clock.instant();
        IssuerKeys known = keysOf(issuer);
        Optional<JWK> key = select(known.keys(), header);
        if (key.isEmpty() && known.fetchedAt().isBefore(asked)) {
            key = select(refetchAfter(issuer, known).keys(), header);
        }
        return key.orElseThrow(() -> refused("the issuer " + issuer + " publishes no key "
                + (header.getKeyID() == null ? "for " + header.getAlgorithm() : "with id " + header.getKeyID())));
    }

    /** The key set fetched after {@code seen}: by another request meanwhile, or now, once the interval is over. */
    private IssuerKeys refetchAfter(String issuer, IssuerKeys seen) {
        ReentrantLock lock = fetching.computeIfAbsent(issuer, i -> new ReentrantLock());
        lock.lock();
        try {
            IssuerKeys now = cache.get(issuer);
            if (now != null && now.fetchedAt().isAfter(seen.fetchedAt())) {
                return now;
            }
            Duration wait = Duration.between(clock.instant(), seen.fetchedAt().plus(REFETCH_INTERVAL));
            if (wait.isPositive()) {
                pause.pause(wait);
            }
            IssuerKeys fetched = fetch(issuer);
            cache.put(issuer, fetched);
            return fetched;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw MeshException.invalid("interrupted while waiting to fetch the keys of the OIDC issuer " + issuer);
        } finally {
            lock.unlock();
        }
    }

    private static Optional<JWK> select(JWKSet keys, JWSHeader header) {
        List<JWK> signing = keys.getKeys().stream()
                .filter(k -> k.getKeyUse() == null || KeyUse.SIGNATURE.equals(k.getKeyUse()))
                .filter(k -> k instanceof AsymmetricJWK)
                .toList();
        if (header.getKeyID() != null) {
            return signing.stream().filter(k -> header.getKeyID().equals(k.getKeyID())).findFirst();
        }
        // Without a key id only an unambiguous key set will do.
        return signing.size() == 1 ? Optional.of(signing.getFirst()) : Optional.empty();
    }

    private static boolean verifiedBy(JWK jwk, SignedJWT jwt) {
        try {
            Key key = ((AsymmetricJWK) jwk).toPublicKey();
            JWSVerifier verifier = new DefaultJWSVerifierFactory().createJWSVerifier(jwt.getHeader(), key);
            return jwt.verify(verifier);
        } catch (JOSEException e) {
            throw refused("the token cannot be verified with the issuer's key " + jwk.getKeyID() + ": " + e.getMessage());
        }
    }

    /**
     * The issuer's discovery document and keys, fetched when there are none or they are stale. A stale set whose
     * issuer cannot be reached is not used: a key the issuer withdrew meanwhile must not verify anything.
     */
    private IssuerKeys keysOf(String issuer) {
        IssuerKeys known = cache.get(issuer);
        if (known != null && clock.instant().isBefore(known.staleAt())) {
            return known;
        }
        ReentrantLock lock = fetching.computeIfAbsent(issuer, i -> new ReentrantLock());
        lock.lock();
        try {
            IssuerKeys now = cache.get(issuer);
            if (now != null && clock.instant().isBefore(now.staleAt())) {
                return now;
            }
            IssuerKeys fetched = fetch(issuer);
            cache.put(issuer, fetched);
            return fetched;
        } finally {
            lock.unlock();
        }
    }

    private IssuerKeys fetch(String issuer) {
        String base = issuer.endsWith("/") ? issuer.substring(0, issuer.length() - 1) : issuer;
        JsonNode discovery = readJson(base + "/.well-known/openid-configuration", "discovery document");
        JsonNode named = discovery.get("issuer");
        if (named == null || !issuer.equals(named.asString())) {
            throw unusable(issuer, "its discovery document names the issuer "
                    + (named == null ? "(none)" : "\"" + named.asString() + "\""));
        }
        JsonNode jwksUri = discovery.get("jwks_uri");
        if (jwksUri == null || !jwksUri.isString()) {
            throw unusable(issuer, "its discovery document has no jwks_uri");
        }
        Fetched jwks = get(jwksUri.asString(), "key set");
        String jwksText = new String(jwks.body(), StandardCharsets.UTF_8);
        try {
            Instant now = clock.instant();
            return new IssuerKeys(discovery, JWKSet.parse(jwksText), now, now.plus(lifeOf(jwks.headers())));
        } catch (ParseException e) {
            throw unusable(issuer, "its key set at " + jwksUri.asString() + " cannot be read: " + e.getMessage());
        }
    }

    /** How long a key set may be used: its {@code Cache-Control: max-age}, within the bounds. */
    static Duration lifeOf(HttpHeaders headers) {
        Duration life = headers.allValues("Cache-Control").stream()
                .map(MAX_AGE::matcher).filter(Matcher::find)
                .map(found -> Duration.ofSeconds(Long.parseLong(found.group(1))))
                .findFirst().orElse(KEYS_LONGEST_LIFE);
        return life.compareTo(KEYS_SHORTEST_LIFE) < 0 ? KEYS_SHORTEST_LIFE
                : life.compareTo(KEYS_LONGEST_LIFE) > 0 ? KEYS_LONGEST_LIFE : life;
    }

    private JsonNode readJson(String url, String what) {
        return readJson(get(url, what).body(), url, what);
    }

    private JsonNode readJson(byte[] bytes, String url, String what) {
        try {
            JsonNode node = json.readTree(bytes);
            if (node == null || !node.isObject()) {
                throw MeshException.invalid("the OIDC " + what + " at " + url + " is not a JSON object");
            }
            return node;
        } catch (JacksonException e) {
            throw MeshException.invalid("the OIDC " + what + " at " + url + " is not JSON: " + e.getOriginalMessage());
        }
    }

    private Fetched get(String url, String what) {
        URI uri = guarded(url, what);
        HttpRequest request = HttpRequest.newBuilder(uri).timeout(TIMEOUT).GET().header("Accept", "application/json").build();
        return send(request, url, what);
    }

    /**
     * Posts a form to the issuer's token endpoint (OIDC login redeems its authorization code there) through the same
     * guard, and returns the JSON answer; an answer other than 200 is refused naming the issuer's {@code error}.
     *
     * @param authorization the {@code Authorization} header (client_secret_basic), or null to send none
     */
    public JsonNode tokenRequest(String issuer, Map<String, String> form, String authorization) {
        JsonNode endpoint = discovery(issuer).get("token_endpoint");
        if (endpoint == null || !endpoint.isString()) {
            throw unusable(issuer, "its discovery document has no token_endpoint");
        }
        String url = endpoint.asString();
        StringBuilder body = new StringBuilder();
        form.forEach((name, value) -> body.append(body.isEmpty() ? "" : "&")
                .append(URLEncoder.encode(name, StandardCharsets.UTF_8)).append('=')
                .append(URLEncoder.encode(value, StandardCharsets.UTF_8)));
        HttpRequest.Builder request = HttpRequest.newBuilder(guarded(url, "token endpoint")).timeout(TIMEOUT)
                .header("Content-Type", "application/x-www-form-urlencoded").header("Accept", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body.toString()));
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        return readJson(send(request.build(), url, "token endpoint").body(), url, "token endpoint");
    }

    /**
     * The issuer's userinfo answer for {@code accessToken} (OIDC Core 5.3), fetched through the same guard: the claims
     * an issuer may give there instead of in the ID token. Empty when the issuer publishes no userinfo endpoint.
     *
     * @throws MeshException (invalid) when the endpoint cannot be reached or refuses the token
     */
    public Optional<Map<String, Object>> userInfo(String issuer, String accessToken) {
        JsonNode endpoint = discovery(issuer).get("userinfo_endpoint");
        if (endpoint == null || !endpoint.isString()) {
            return Optional.empty();
        }
        String url = endpoint.asString();
        HttpRequest request = HttpRequest.newBuilder(guarded(url, "userinfo endpoint")).timeout(TIMEOUT).GET()
                .header("Accept", "application/json").header("Authorization", "Bearer " + accessToken).build();
        JsonNode answer = readJson(send(request, url, "userinfo endpoint").body(), url, "userinfo endpoint");
        Map<String, Object> claims = new LinkedHashMap<>();
        answer.properties().stream().filter(claim -> !claim.getValue().isNull())
                .forEach(claim -> claims.put(claim.getKey(), plain(claim.getValue())));
        return Optional.of(claims);
    }

    /** A JSON value as the ID token's claims come: text, boolean, number, a list of those, or null. */
    private static Object plain(JsonNode value) {
        if (value.isString()) {
            return value.asString();
        }
        if (value.isBoolean()) {
            return value.asBoolean();
        }
        if (value.isNumber()) {
            return value.numberValue();
        }
        if (value.isArray()) {
            List<Object> list = new ArrayList<>();
            value.forEach(item -> list.add(plain(item)));
            return list;
        }
        return value.toString();
    }

    private URI guarded(String url, String what) {
        URI uri;
        try {
            uri = URI.create(url);
        } catch (IllegalArgumentException e) {
            throw MeshException.invalid("the OIDC " + what + " URL " + url + " is not a URL");
        }
        if (!"https".equalsIgnoreCase(uri.getScheme()) && !"http".equalsIgnoreCase(uri.getScheme()) || uri.getHost() == null) {
            throw MeshException.invalid("the OIDC " + what + " URL " + url + " is not an http(s) URL");
        }
        checkAddresses(uri, what);
        return uri;
    }

    private Fetched send(HttpRequest request, String url, String what) {
        try {
            HttpResponse<InputStream> response = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
            try (InputStream body = response.body()) {
                byte[] bytes = body.readNBytes(MAX_DOCUMENT_BYTES + 1);
                if (response.statusCode() != 200) {
                    throw MeshException.invalid("the OIDC " + what + " at " + url + " answered HTTP " + response.statusCode()
                            + errorOf(bytes));
                }
                if (bytes.length > MAX_DOCUMENT_BYTES) {
                    throw MeshException.invalid("the OIDC " + what + " at " + url + " is larger than "
                            + MAX_DOCUMENT_BYTES / 1024 + " KiB");
                }
                return new Fetched(bytes, response.headers());
            }
        } catch (IOException e) {
            throw MeshException.invalid("cannot fetch the OIDC " + what + " at " + url + ": " + cause(e));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw MeshException.invalid("interrupted while fetching the OIDC " + what + " at " + url);
        }
    }

    /** An I/O failure in words; the HTTP client's connection failures often carry no message of their own. */
    private static String cause(IOException e) {
        return switch (e) {
            case java.net.http.HttpConnectTimeoutException timeout -> "no connection within " + TIMEOUT.toSeconds() + " s";
            case java.net.http.HttpTimeoutException timeout -> "no answer within " + TIMEOUT.toSeconds() + " s";
            case java.net.ConnectException refused when refused.getMessage() == null -> "connection refused";
            default -> e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        };
    }

    /** The OAuth {@code error} (and its description) of a refusal's JSON body, if it has one. */
    private String errorOf(byte[] body) {
        try {
            JsonNode node = json.readTree(body);
            JsonNode error = node == null ? null : node.get("error");
            if (error == null || !error.isString()) {
                return "";
            }
            JsonNode description = node.get("error_description");
            return " (" + error.asString() + (description != null && description.isString()
                    ? ": " + description.asString() : "") + ")";
        } catch (JacksonException e) {
            return "";
        }
    }

    private void checkAddresses(URI uri, String what) {
        String host = uri.getHost();
        InetAddress[] addresses;
        try {
            addresses = resolver.resolve(host.startsWith("[") ? host.substring(1, host.length() - 1) : host);
        } catch (UnknownHostException e) {
            throw MeshException.invalid("cannot fetch the OIDC " + what + " at " + uri + ": unknown host " + host);
        }
        for (InetAddress address : addresses) {
            Optional<String> refusal = guard.refusal(address);
            if (refusal.isPresent()) {
                throw MeshException.invalid("the OIDC " + what + " URL " + uri + " points at " + refusal.get()
                        + ", which the server does not fetch from");
            }
        }
    }

    private static MeshException unusable(String issuer, String why) {
        return MeshException.invalid("the OIDC issuer " + issuer + " cannot be used: " + why);
    }

    private static MeshException refused(String why) {
        return MeshException.unauthenticated("ID token refused: " + why);
    }
}
