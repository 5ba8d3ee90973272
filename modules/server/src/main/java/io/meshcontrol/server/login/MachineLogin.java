package io.meshcontrol.server.login;

import io.meshcontrol.server.http.RawBody;
import io.meshcontrol.server.http.Reply;
import java.nio.charset.StandardCharsets;

/**
 * Where a machine's AuthURL ({@code /register/{authId}}) leads a person: the administrator's page, or the OIDC
 * issuer's login ({@link OidcLogin}).
 */
@FunctionalInterface
public interface MachineLogin {

    /** What the browser gets for the pending login {@code authId}. */
    Reply start(String authId);

    /** Without OIDC: a page telling the administrator the command that completes the login, in the product's name. */
    static MachineLogin byAdministrator(Branding branding) {
        return authId -> Reply.ok(new RawBody("text/html; charset=utf-8",
                page(branding, authId).getBytes(StandardCharsets.UTF_8)));
    }

    private static String page(Branding branding, String authId) {
        return branding.page("A machine asks to join the network", """
                    <p>An administrator completes the login on the server with:</p>
                    <pre>svc auth register --user &lt;USER&gt; --auth-id %s</pre>
                    <p>The machine joins as soon as that command succeeds.</p>""".formatted(authId));
    }
}
