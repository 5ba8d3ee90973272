package io.meshcontrol.server.login;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.server.http.RawBody;
import io.meshcontrol.server.http.Reply;
import io.meshcontrol.server.http.SessionAuthentication;
import io.undertow.server.HttpServerExchange;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Where a machine's AuthURL ({@code /register/{authId}}) leads a person. The decision is the console's: the page
 * that shows the waiting machine and completes its login is {@code /admin/#/register/{authId}} (docs/console.md).
 * <ul>
 * <li>A browser with a console session (API key sign-in or OIDC login) goes to that page.</li>
 * <li>Without one, with OIDC login on, the person logs in at the issuer and the machine becomes theirs (the vendor's
 *     way); {@code ?login=self} asks for that even when signed in (a member who may not register for others).</li>
 * <li>Without one and without OIDC, the console page too: it shows its sign-in first and then the machine, at the
 *     same address.</li>
 * <li>An unknown or lapsed id gets a page saying so (404), in the console's style.</li>
 * </ul>
 * Every address is relative to the request's, so it works behind a proxy's path prefix.
 */
public final class RegisterPage {

    /** From {@code /register/{authId}}, the console's page for the same id. */
    static final String CONSOLE_PAGE = "../admin/#/register/";

    private final Branding branding;
    private final SessionAuthentication sessions;
    /** The person's own login at the OIDC issuer, or null when OIDC login is off. */
    private final MachineLogin ownLogin;

    public RegisterPage(Branding branding, SessionAuthentication sessions, MachineLogin ownLogin) {
        this.branding = branding;
        this.sessions = sessions;
        this.ownLogin = ownLogin;
    }

    /**
     * @param pending whether a machine waits under {@code authId} now
     * @param ownLoginAsked {@code ?login=self}: the person's own login, where there is one
     */
    public Reply open(String authId, boolean pending, boolean ownLoginAsked, HttpServerExchange exchange) {
        if (!pending) {
            return expired();
        }
        if (ownLogin != null && (ownLoginAsked || !signedIn(exchange))) {
            return ownLogin.start(authId);
        }
        return new Reply(303, null, Map.of("Location", CONSOLE_PAGE + authId, "Cache-Control", "no-store"));
    }

    private boolean signedIn(HttpServerExchange exchange) {
        try {
            return sessions.callerFor(exchange).isPresent();
        } catch (MeshException e) {
            return false; // a session that is over: signed out
        }
    }

    private Reply expired() {
        String html = branding.styledPage("This login link expired", "../admin/console.css", """
                    <p>No machine waits under this link any more: it was used already, refused, or is older than 15
                      minutes.</p>
                    <p>Run <code>tailscale up</code> again on the machine for a new link.</p>""");
        return new Reply(404, new RawBody("text/html; charset=utf-8", html.getBytes(StandardCharsets.UTF_8)),
                Map.of("Cache-Control", "no-store"));
    }
}
