package io.meshcontrol.server.v2;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.state.OAuthClients;
import io.meshcontrol.server.http.ApiRequest;
import io.meshcontrol.server.http.FailedCredentials;
import io.meshcontrol.server.http.Reply;
import io.meshcontrol.server.identity.OidcIssuers;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * The OAuth token endpoints, as the vendor's clients call them (shared/reference/vendor-api-v2.md 1.4 and 1.5):
 *
 * <ul>
 *   <li>{@code POST /api/v2/oauth/token}: client credentials, in HTTP Basic ({@code QueryEscape(id):QueryEscape(secret)})
 *       or in the form body; the client is found by its secret alone, since node clients send the placeholder id
 *       {@code some-client-id}. A missing {@code grant_type} means {@code client_credentials}; {@code scope}
 *       (space-separated) narrows the token.</li>
 *   <li>{@code POST /api/v2/oauth/token-exchange}: form {@code client_id} and {@code jwt} (the workload's ID token),
 *       with or without {@code grant_type=authorization_code&code=} and an empty Basic credential.</li>
 * </ul>
 *
 * Both answer {@code application/json} {@code {access_token, token_type, expires_in, scope}}. Refusals are OAuth
 * error objects ({@code error}, {@code error_description}) that also carry the vendor's {@code message}, so that
 * OAuth libraries and the vendor's API clients both print the reason.
 */
public final class OAuthTokenRoutes {

    private static final String FORM = "application/x-www-form-urlencoded";

    /** The token form (RFC 6749 4.4), as the document shows it; the handler reads the form by name. */
    record TokenForm(@JsonProperty("grant_type") String grantType, String scope,
            @JsonProperty("client_id") String clientId, @JsonProperty("client_secret") String clientSecret) {
    }

    /** The token-exchange form, as the document shows it. */
    record ExchangeForm(@JsonProperty("client_id") String clientId, String jwt,
            @JsonProperty("grant_type") String grantType, String code) {
    }

    private final OAuthClients clients;
    private final OidcIssuers issuers;
    /** A wrong secret or workload token counts towards the address's back-off. */
    private final FailedCredentials failures;

    public OAuthTokenRoutes(OAuthClients clients, OidcIssuers issuers, FailedCredentials failures) {
        this.clients = clients;
        this.issuers = issuers;
        this.failures = failures;
    }

    public void register(V2Routes routes) {
        routes.open("POST", "/oauth/token", this::token)
                .doc("", "OAuth client credentials (Basic or form body) for a one-hour access token with the "
                        + "client's scopes and tags.")
                .takes(FORM, TokenForm.class).answers(Answers.Token.class)
                .answers(400, "application/json", Answers.OAuthError.class)
                .answers(401, "application/json", Answers.OAuthError.class);
        routes.open("POST", "/oauth/token-exchange", this::exchange)
                .doc("", "A workload's OIDC token (client_id, jwt) for a one-hour access token, checked against the "
                        + "federated identity's issuer, audience, subject and claim rules; audited.")
                .takes(FORM, ExchangeForm.class).answers(Answers.Token.class)
                .answers(400, "application/json", Answers.OAuthError.class)
                .answers(401, "application/json", Answers.OAuthError.class);
    }

    private Reply token(ApiRequest request) {
        try {
            Map<String, String> form = request.form();
            String grant = form.getOrDefault("grant_type", "client_credentials");
            if (!grant.isEmpty() && !grant.equals("client_credentials")) {
                return error(400, "unsupported_grant_type", "grant_type must be client_credentials, got \"" + grant + "\"");
            }
            String secret = basicPassword(request);
            if (secret == null || secret.isEmpty()) {
                secret = form.get("client_secret");
            }
            if (secret == null || secret.isEmpty()) {
                return error(401, "invalid_client", "no client secret: send it as the Basic password or as client_secret");
            }
            String scope = form.getOrDefault("scope", "").trim();
            List<String> scopes = scope.isEmpty() ? List.of() : Arrays.asList(scope.split(" +"));
            String presented = secret;
            return granted(failures.check(request.exchange(), () -> clients.issueToken(presented, scopes)));
        } catch (MeshException e) {
            return refusal(e, "invalid_client", "invalid_scope");
        }
    }

    private Reply exchange(ApiRequest request) {
        try {
            Map<String, String> form = request.form();
            String clientId = form.get("client_id");
            String jwt = form.get("jwt");
            if (clientId == null || clientId.isBlank() || jwt == null || jwt.isBlank()) {
                return error(400, "invalid_request", "the form needs client_id (the federated identity) and jwt "
                        + "(the workload's OIDC token)");
            }
            return granted(failures.check(request.exchange(), () -> clients.exchange(clientId, request.source(),
                    issuer -> issuers.verify(issuer, jwt).claims())));
        } catch (MeshException e) {
            return refusal(e, "invalid_grant", "invalid_request");
        }
    }

    private static Reply granted(OAuthClients.Token token) {
        return Reply.ok(new Answers.Token(token.text(), "Bearer", token.lifetime().toSeconds(),
                String.join(" ", token.scopes())));
    }

    /** Unauthenticated refusals are the credential's fault; invalid ones the request's (a scope, an issuer). */
    private static Reply refusal(MeshException e, String credentialError, String requestError) {
        return e.reason() == MeshException.Reason.UNAUTHENTICATED
                ? error(401, credentialError, e.getMessage())
                : error(400, requestError, e.getMessage());
    }

    private static Reply error(int status, String code, String description) {
        return new Reply(status, new Answers.OAuthError(code, description, description),
                Map.of("Cache-Control", "no-store"));
    }

    /** The Basic password, URL-decoded as x/oauth2 encodes it; null without Basic credentials. */
    private static String basicPassword(ApiRequest request) {
        String header = request.header("Authorization").orElse("").trim();
        if (!header.regionMatches(true, 0, "Basic ", 0, 6)) {
            return null;
        }
        String decoded;
        try {
            decoded = new String(Base64.getDecoder().decode(header.substring(6).trim()), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return null;
        }
        int colon = decoded.indexOf(':');
        if (colon < 0) {
            return null;
        }
        try {
            return URLDecoder.decode(decoded.substring(colon + 1), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return decoded.substring(colon + 1);
        }
    }
}
