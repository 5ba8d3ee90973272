package io.meshcontrol.server;

import io.meshcontrol.core.state.Network;
import io.meshcontrol.server.console.ConsoleRoutes;
import io.meshcontrol.server.http.Authenticator;
import io.meshcontrol.server.http.SessionAuthentication;
import io.meshcontrol.server.identity.OidcIssuers;
import io.meshcontrol.server.login.ConsoleSignIn;
import io.meshcontrol.server.login.KeySessions;
import io.meshcontrol.server.login.OidcLogin;
import io.meshcontrol.server.login.RegisterPage;
import io.meshcontrol.server.v1.AuthRoutes;
import io.meshcontrol.server.v1.SshCheckRoutes;
import java.util.Optional;

/**
 * People: OIDC login when {@code oidc.issuer} is set (machines' AuthURLs lead to the issuer; browser sessions), the
 * approval of waiting logins, and the browser console with its files and its sign-in with an API key (a session
 * acting as that key).
 *
 * @param oidc OIDC login, or null when it is off
 */
record ConsoleWiring(KeySessions keySessions, OidcLogin oidc) {

    static ConsoleWiring register(Wiring w, OidcIssuers oidcIssuers, String localToken) {
        ServerSettings settings = w.settings();
        Network network = w.network();
        OidcLogin oidc = settings.oidc().enabled()
                ? new OidcLogin(settings.oidc(), settings.serverUrl(), oidcIssuers, new OidcLogin.People(
                        network.users(), network.pendingLogins(), network.browserSessions(), network.sshChecks()),
                        w.clock(),
                        settings.branding())
                : null;
        if (oidc != null) {
            oidc.checkIssuer();
            oidc.register(w.routes());
        }
        new SshCheckRoutes(network.sshChecks(), settings.branding(), oidc == null ? null : oidc::startSshCheck)
                .register(w.routes());
        KeySessions consoleSessions = new KeySessions(new Authenticator(network.apiKeys(), network.oauthClients(),
                localToken), settings.serverUrl(), w.clock());
        ConsoleWiring wiring = new ConsoleWiring(consoleSessions, oidc);
        new AuthRoutes(network.pendingLogins(), network.routeElection(), network.snapshots(), w.clock(),
                new RegisterPage(settings.branding(), wiring.sessions(), oidc)).register(w.routes());
        new ConsoleSignIn(consoleSessions, Optional.ofNullable(oidc).map(OidcLogin::sessionCookies),
                settings.branding(), w.failedCredentials()).register(w.routes());
        new ConsoleRoutes().register(w.routes());
        return wiring;
    }

    /** The browser sessions the APIs accept: the console's key sessions, and OIDC logins' when on. */
    SessionAuthentication sessions() {
        return oidc == null ? keySessions : keySessions.orElse(oidc.sessionCookies());
    }
}
