package io.meshcontrol.server.login;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.config.MeshConfig;
import io.meshcontrol.core.model.User;
import io.meshcontrol.core.state.BrowserSessions;
import io.meshcontrol.core.state.PendingLogins;
import io.meshcontrol.core.state.Registrations;
import io.meshcontrol.core.state.SshChecks;
import io.meshcontrol.core.state.Users;
import io.meshcontrol.server.http.ApiRequest;
import io.meshcontrol.server.http.Reply;
import io.meshcontrol.server.http.Routes;
import io.meshcontrol.server.identity.OidcIssuers;
import io.undertow.util.Headers;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * OIDC login for people ({@code oidc.*}): the authorization code flow with {@code state}, {@code nonce} and PKCE
 * against the issuer's discovery document, the code redeemed at its token endpoint, the ID token verified
 * ({@link OidcIssuers}: signature, issuer, times; here: audience and nonce), {@link LoginRules}, and then either the
 * machine that waits under the login's auth id is registered for the person ({@code tailscale up}), or a browser
 * session starts ({@code /login}, for the console).
 *
 * <p>Routes: {@code /register/{authId}} sends a browser without a console session to the issuer ({@link RegisterPage}),
 * {@code GET /login} starts a console login ({@code return_to}: a {@link ReturnPath} to come back to afterwards),
 * {@code GET /oidc/callback} is where the issuer sends the browser back,
 * {@code GET /session} tells a page who is logged in and its CSRF token, {@code POST /logout} ends the session.
 */
public final class OidcLogin implements MachineLogin {

    private static final System.Logger LOG = System.getLogger(OidcLogin.class.getName());
    /** The claims a login reads; missing from the ID token, they are asked of the userinfo endpoint. */
    private static final List<String> PROFILE_CLAIMS = List.of("email", "preferred_username", "name", "groups");
    /** Parameters the flow sets itself; {@code oidc.extra_params} cannot replace them. */
    private static final Set<String> FLOW_PARAMS = Set.of("response_type", "client_id", "redirect_uri", "scope",
            "state", "nonce", "code_challenge", "code_challenge_method");

    /** What {@code GET /session} answers. */
    public record SessionView(String user, String displayName, String email, String role, String csrfToken,
            Instant expires) {
    }

    private final MeshConfig.Oidc settings;
    private final String issuer;
    private final String clientSecret;
    private final String redirectUri;
    private final OidcIssuers issuers;
    private final People people;
    private final SessionCookies cookies;
    private final LoginFlows flows;
    private final LoginRules rules;
    private final Clock clock;
    private final LoginPages pages;
    private final String serverUrl;
    private final String consoleUrl;

    /**
     * The state a login touches: the person's user, the machine waiting for the login or the SSH check it decides, the
     * browser session it starts.
     */
    public record People(Users users, PendingLogins pendingLogins, BrowserSessions browserSessions,
            SshChecks sshChecks) {
    }

    /**
     * @param settings with {@code oidc.issuer} set (OIDC login on)
     * @param branding the name and logo on the pages a person sees
     */
    public OidcLogin(MeshConfig.Oidc settings, String serverUrl, OidcIssuers issuers, People people, Clock clock,
            Branding branding) {
        this.pages = new LoginPages(branding);
        this.settings = settings;
        this.issuer = settings.issuer().orElseThrow(() -> new IllegalArgumentException("oidc.issuer is not set"));
        this.clientSecret = clientSecret(settings);
        this.redirectUri = serverUrl + SessionCookies.CALLBACK_PATH;
        this.serverUrl = serverUrl;
        this.consoleUrl = serverUrl.replaceAll("/+$", "") + "/admin";
        this.issuers = issuers;
        this.people = people;
        this.cookies = new SessionCookies(people.browserSessions(), serverUrl);
        this.flows = new LoginFlows(clock);
        this.rules = LoginRules.from(settings);
        this.clock = clock;
    }

    /**
     * {@code oidc.client_secret}, or the first line of {@code oidc.client_secret_path} (read once, at start); null for
     * a public client, which PKCE protects alone.
     */
    private static String clientSecret(MeshConfig.Oidc settings) {
        if (settings.clientSecretPath().isEmpty()) {
            return settings.clientSecret().orElse(null);
        }
        Path file = settings.clientSecretPath().get();
        try {
            return Files.readString(file).strip();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read oidc.client_secret_path " + file, e);
        }
    }

    /** The session cookie check of {@code /api/v1}. */
    public SessionCookies sessionCookies() {
        return cookies;
    }

    /**
     * Fetches the issuer's discovery document and keys now: with {@code oidc.only_start_if_oidc_is_available} a
     * server whose issuer cannot be reached does not start (a {@link MeshException} whose one line names the issuer
     * and the cause, which {@code svc serve} prints); without it, a warning, and every login tries again.
     */
    public void checkIssuer() {
        try {
            issuers.discovery(issuer);
        } catch (MeshException e) {
            if (settings.onlyStartIfOidcIsAvailable()) {
                throw MeshException.invalid("not starting: the OIDC issuer " + issuer + " is unavailable ("
                        + e.getMessage() + "); start it, or set oidc.only_start_if_oidc_is_available: false to "
                        + "start without it");
            }
            LOG.log(Level.WARNING, "the OIDC issuer " + issuer + " is unavailable (" + e.getMessage()
                    + "); starting anyway (oidc.only_start_if_oidc_is_available: false): OIDC logins fail with a "
                    + "page saying so until it answers, and each login tries it again");
        }
    }

    public void register(Routes routes) {
        // return_to: a path of this server to go to afterwards (the console's page); anything else is ignored
        routes.addPublic("GET", "/login", request -> toIssuer(new LoginFlows.Purpose.Console(
                request.query("return_to").flatMap(ReturnPath::of).orElse(null))));
        routes.addPublic("GET", SessionCookies.CALLBACK_PATH, this::callback);
        routes.addPublic("GET", "/session", request -> {
            String secret = sessionSecret(request).orElseThrow(() ->
                    MeshException.unauthenticated("not logged in; log in at /login"));
            BrowserSessions.Session session = cookies.open(secret);
            User user = session.user();
            return Reply.ok(new SessionView(user.name(), user.displayName(), user.email(), user.role().wireName(),
                    SessionCookies.csrfToken(secret), session.expires()));
        });
        routes.addPublic("POST", "/logout", request -> {
            Optional<String> secret = sessionSecret(request);
            if (secret.isPresent() && people.browserSessions().find(secret.get()).isPresent()) {
                cookies.requireSameSite(request.exchange(), secret.get());
                people.browserSessions().end(secret.get());
            }
            return new Reply(204, null, Map.of("Set-Cookie", cookies.clearedSessionCookie()));
        });
    }

    /** A machine's AuthURL: the person logs in at the issuer. */
    @Override
    public Reply start(String authId) {
        return toIssuer(new LoginFlows.Purpose.Machine(authId));
    }

    /**
     * An SSH check's page: the person logs in at the issuer again ({@code prompt=login}: a session the issuer still
     * holds is not proof that the person at the keyboard is its owner).
     */
    public Reply startSshCheck(String authId) {
        return toIssuer(new LoginFlows.Purpose.SshCheck(authId));
    }

    private Reply toIssuer(LoginFlows.Purpose purpose) {
        JsonNode endpoint;
        try {
            endpoint = issuers.discovery(issuer).get("authorization_endpoint");
        } catch (MeshException e) {
            LOG.log(Level.WARNING, "OIDC login cannot start: " + e.getMessage());
            return pages.page(502, "The identity provider cannot be reached", e.getMessage());
        }
        if (endpoint == null || !endpoint.isString()) {
            return pages.page(502, "The identity provider cannot be used",
                    "The OIDC issuer " + issuer + " publishes no authorization_endpoint.");
        }
        LoginFlows.Flow flow = flows.begin(purpose);
        Map<String, String> query = new LinkedHashMap<>();
        query.put("response_type", "code");
        query.put("client_id", settings.clientId());
        query.put("redirect_uri", redirectUri);
        query.put("scope", String.join(" ", settings.scope()));
        query.put("state", flow.state());
        query.put("nonce", flow.nonce());
        if (settings.pkce().enabled()) {
            query.put("code_challenge", LoginFlows.challenge(flow.codeVerifier(), settings.pkce().method()));
            query.put("code_challenge_method", settings.pkce().method().configName());
        }
        settings.extraParams().forEach((name, value) -> {
            if (!FLOW_PARAMS.contains(name)) {
                query.put(name, value);
            }
        });
        if (purpose instanceof LoginFlows.Purpose.SshCheck) {
            query.put("prompt", "login");
        }
        String url = endpoint.asString() + (endpoint.asString().contains("?") ? "&" : "?") + encode(query);
        return new Reply(302, null, Map.of("Location", url, "Set-Cookie", cookies.loginStateCookie(flow.state()),
                "Cache-Control", "no-store"));
    }

    private Reply callback(ApiRequest request) {
        Optional<String> state = request.query("state");
        Optional<LoginFlows.Flow> flow = state.flatMap(flows::take);
        if (flow.isEmpty()) {
            return pages.page(400, "This login has expired",
                    "The link was used already or is too old. Start again: run tailscale up again, or open /login.");
        }
        // The state's cookie has done its job once the browser is back with it, whatever the outcome. (Only a state
        // this server made is written into a header.)
        request.exchange().getResponseHeaders().add(Headers.SET_COOKIE,
                cookies.clearedLoginStateCookie(flow.get().state()));
        if (!SessionCookies.startedHere(request.header("Cookie").orElse(null), state.get())) {
            return pages.page(400, "This login was started elsewhere",
                    "Finish the login in the browser that started it, or start again.");
        }
        Optional<String> error = request.query("error");
        if (error.isPresent()) {
            return pages.page(403, "The identity provider refused the login",
                    error.get() + request.query("error_description").map(d -> ": " + d).orElse(""));
        }
        IdentityClaims claims;
        try {
            claims = redeem(request.query("code").orElseThrow(() ->
                    MeshException.invalid("the identity provider sent no authorization code")), flow.get());
        } catch (MeshException e) {
            LOG.log(Level.WARNING, "OIDC login failed: " + e.getMessage());
            return pages.page(e.reason() == MeshException.Reason.INVALID ? 502 : 401,
                    "The login could not be completed", e.getMessage());
        }
        Optional<String> refusal = rules.refusal(claims);
        if (refusal.isPresent()) {
            LOG.log(Level.INFO, "OIDC login of " + claims.subject() + " refused: " + refusal.get());
            return pages.page(403, "You may not log in here", refusal.get());
        }
        User user = people.users().logIn(new Users.PersonLogin(claims.issuer(), claims.subject(),
                claims.preferredUsername(), claims.name(), rules.trustsEmail(claims) ? claims.email() : "")).user();
        return switch (flow.get().purpose()) {
            case LoginFlows.Purpose.Machine machine -> machineJoins(machine.authId(), user, claims);
            case LoginFlows.Purpose.Console console -> sessionStarts(user, console.returnTo());
            case LoginFlows.Purpose.SshCheck check -> sshChecked(check.authId(), user);
        };
    }

    private Reply machineJoins(String authId, User user, IdentityClaims claims) {
        Registrations.KeyLife life = settings.useExpiryFromToken() ? new Registrations.KeyLife.Until(claims.expires())
                : new Registrations.KeyLife.Lifetime(settings.expiry());
        Registrations.Registered registered;
        try {
            registered = people.pendingLogins().completeByLogin(authId, user, life);
        } catch (MeshException e) {
            return pages.page(410, "The machine's login has expired", "Run tailscale up again for a new link.");
        }
        String machine = registered.node().givenName();
        if (!user.approved()) {
            return pages.page(200, "Waiting for approval", "You are logged in as " + user.name() + ". The machine "
                    + machine + " joins once an administrator approves you (svc users approve --name " + user.name()
                    + ")" + (registered.heldByDeviceApproval()
                            ? " and then the machine (device approval is on: svc nodes approve)." : "."));
        }
        if (!registered.node().authorized()) {
            return pages.page(200, "Waiting for approval", "You are logged in as " + user.name() + ". The machine "
                    + machine + " joins once an administrator approves it (device approval is on).");
        }
        return pages.page(200, "Logged in", "The machine " + machine + " joined the network as " + user.name()
                + ". You can close this page.");
    }

    private Reply sshChecked(String authId, User user) {
        boolean passed;
        try {
            passed = people.sshChecks().completeByLogin(authId, user);
        } catch (MeshException e) {
            return pages.page(410, "The SSH check has ended", e.getMessage());
        }
        return passed ? pages.page(200, "Checked", "You are logged in as " + user.name()
                + ". The SSH session starts now; you can close this page.")
                : pages.page(403, "The SSH session was refused", "You are logged in as " + user.name()
                        + ", who does not own the machine the session comes from. The session was refused; "
                        + "connect again to start a new check.");
    }

    private Reply sessionStarts(User user, ReturnPath returnTo) {
        if (!user.approved()) {
            return pages.page(403, "Waiting for approval", "You are logged in as " + user.name()
                    + ", but an administrator has to approve you first (svc users approve --name " + user.name() + ").");
        }
        BrowserSessions.Started started = people.browserSessions().start(user);
        String cookie = cookies.sessionCookie(started, clock.instant());
        if (returnTo != null) {
            return new Reply(303, null, Map.of("Location", returnTo.under(serverUrl), "Set-Cookie", cookie,
                    "Cache-Control", "no-store"));
        }
        return pages.page(200, "Logged in", "You are logged in as " + user.name() + ". The console is at "
                + consoleUrl + ".", Map.of("Set-Cookie", cookie));
    }

    /** The code redeemed at the token endpoint, and its ID token verified for this client and this flow's nonce. */
    private IdentityClaims redeem(String code, LoginFlows.Flow flow) {
        Map<String, String> form = new LinkedHashMap<>();
        form.put("grant_type", "authorization_code");
        form.put("code", code);
        form.put("redirect_uri", redirectUri);
        if (settings.pkce().enabled()) {
            form.put("code_verifier", flow.codeVerifier());
        }
        String authorization = null;
        if (clientSecret == null) {
            form.put("client_id", settings.clientId());
        } else {
            // client_secret_basic, the default of every issuer (RFC 6749 2.3.1: both parts form-encoded first)
            authorization = "Basic " + Base64.getEncoder().encodeToString((encode(settings.clientId()) + ":"
                    + encode(clientSecret)).getBytes(StandardCharsets.UTF_8));
        }
        JsonNode answer = issuers.tokenRequest(issuer, form, authorization);
        JsonNode idToken = answer.get("id_token");
        if (idToken == null || !idToken.isString()) {
            throw MeshException.invalid("the identity provider's token answer has no id_token (is openid in oidc.scope?)");
        }
        OidcIssuers.VerifiedToken token = issuers.verify(issuer, idToken.asString());
        if (!token.audience().contains(settings.clientId())) {
            throw MeshException.unauthenticated("ID token refused: its audience " + token.audience()
                    + " does not include this server's client id " + settings.clientId());
        }
        if (!flow.nonce().equals(token.claims().get("nonce"))) {
            throw MeshException.unauthenticated("ID token refused: its nonce is not the one this login sent");
        }
        if (token.subject() == null || token.subject().isBlank()) {
            throw MeshException.unauthenticated("ID token refused: it names no subject (sub)");
        }
        Object exp = token.claims().get("exp");
        Instant expires = exp instanceof Date date ? date.toInstant() : clock.instant();
        Map<String, Object> claims = withUserInfo(token, answer.get("access_token"));
        return new IdentityClaims(token.issuer(), token.subject(), text(claims, "email"),
                Boolean.TRUE.equals(claims.get("email_verified")) || "true".equals(claims.get("email_verified")),
                text(claims, "preferred_username"), text(claims, "name"), groups(claims.get("groups")), expires);
    }

    /**
     * The ID token's claims, completed from the issuer's userinfo endpoint when the token lacks one of the profile
     * claims a login reads (OIDC lets an issuer give them only there): a claim of the token wins; the userinfo answer
     * counts only for the token's own subject (OIDC Core 5.3.2), and its {@code email_verified} only with its e-mail.
     */
    private Map<String, Object> withUserInfo(OidcIssuers.VerifiedToken token, JsonNode accessToken) {
        Map<String, Object> claims = token.claims();
        if (PROFILE_CLAIMS.stream().allMatch(claims::containsKey) || accessToken == null || !accessToken.isString()) {
            return claims;
        }
        Optional<Map<String, Object>> info = issuers.userInfo(issuer, accessToken.asString());
        if (info.isEmpty()) {
            return claims;
        }
        if (!token.subject().equals(info.get().get("sub"))) {
            throw MeshException.unauthenticated("the identity provider's userinfo answer is about another subject ("
                    + info.get().get("sub") + ", the ID token's is " + token.subject() + ")");
        }
        Map<String, Object> merged = new LinkedHashMap<>(claims);
        PROFILE_CLAIMS.forEach(name -> {
            if (!claims.containsKey(name) && info.get().containsKey(name)) {
                merged.put(name, info.get().get(name));
                if (name.equals("email") && info.get().containsKey("email_verified")) {
                    merged.put("email_verified", info.get().get("email_verified"));
                }
            }
        });
        return merged;
    }

    private static String text(Map<String, Object> claims, String claim) {
        return claims.get(claim) instanceof String value ? value : "";
    }

    private static List<String> groups(Object claim) {
        if (claim instanceof List<?> list) {
            return list.stream().filter(String.class::isInstance).map(String.class::cast).toList();
        }
        return claim instanceof String single ? List.of(single) : List.of();
    }

    private static Optional<String> sessionSecret(ApiRequest request) {
        return SessionCookies.cookie(request.header("Cookie").orElse(null), SessionCookies.SESSION);
    }

    private static String encode(Map<String, String> query) {
        StringBuilder text = new StringBuilder();
        query.forEach((name, value) -> text.append(text.isEmpty() ? "" : "&").append(encode(name)).append('=')
                .append(encode(value)));
        return text.toString();
    }

    private static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }
}
