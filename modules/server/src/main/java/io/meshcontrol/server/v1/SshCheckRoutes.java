package io.meshcontrol.server.v1;

import io.meshcontrol.api.AuthDecisionRequest;
import io.meshcontrol.api.SshCheckList;
import io.meshcontrol.api.SshCheckView;
import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.state.SshChecks;
import io.meshcontrol.server.http.RawBody;
import io.meshcontrol.server.http.Reply;
import io.meshcontrol.server.http.Routes;
import io.meshcontrol.server.login.Branding;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * SSH check mode, the person's and the administrator's side (the machine's is {@code SshActionEndpoint}): the check
 * page a held session's message links to ({@code /ssh/check/{authId}}: with OIDC a fresh login at the issuer, else
 * a page naming the administrator's commands), and {@code /api/v1/auth/approve}, {@code /reject} and
 * {@code /ssh-check}, which the console and {@code svc auth approve|reject} use.
 */
public final class SshCheckRoutes {

    /** Where the check page sends the person to prove it is them: the OIDC login, when there is one. */
    @FunctionalInterface
    public interface PersonCheck {
        Reply start(String authId);
    }

    private final SshChecks checks;
    private final Branding branding;
    private final PersonCheck personCheck;

    /** @param personCheck the OIDC login for checks, or null without OIDC (an administrator decides) */
    public SshCheckRoutes(SshChecks checks, Branding branding, PersonCheck personCheck) {
        this.checks = checks;
        this.branding = branding;
        this.personCheck = personCheck;
    }

    public void register(Routes routes) {
        routes.add("POST", "/api/v1/auth/approve",
                request -> Reply.ok(view(checks.approve(request.caller(), authId(request.requiredBody(
                        AuthDecisionRequest.class))))));
        routes.add("POST", "/api/v1/auth/reject",
                request -> Reply.ok(view(checks.reject(request.caller(), authId(request.requiredBody(
                        AuthDecisionRequest.class))))));
        routes.add("GET", "/api/v1/auth/ssh-check", request -> Reply.ok(new SshCheckList(
                checks.pending(request.caller()).stream().map(SshCheckRoutes::view).toList())));
        routes.addPublic("GET", "/ssh/check/{authId}", request -> {
            String authId = request.pathParam("authId");
            SshChecks.Check check = (authId.matches("[A-Za-z0-9]{1,64}") ? checks.undecided(authId)
                    : Optional.<SshChecks.Check>empty()).orElseThrow(() -> MeshException.notFound(
                            "no SSH check waits under this id; connect again for a new one"));
            return personCheck != null ? personCheck.start(authId) : Reply.ok(new RawBody("text/html; charset=utf-8",
                    page(check).getBytes(StandardCharsets.UTF_8)));
        });
    }

    private static String authId(AuthDecisionRequest body) {
        if (body.authId() == null || body.authId().isBlank()) {
            throw MeshException.invalid("\"authId\" is missing");
        }
        return body.authId();
    }

    static SshCheckView view(SshChecks.Check check) {
        return new SshCheckView(check.authId(), check.srcNode(), check.srcOwner(), check.dstNode(), check.localUser(),
                check.requested(), check.expires());
    }

    private String page(SshChecks.Check check) {
        return branding.page("An SSH session waits for a check", """
                    <p>%s on %s asks to log in to %s as %s. This server has no OIDC login, so a person cannot prove
                    it is them here: an administrator decides, in the console or with</p>
                    <pre>svc auth approve --auth-id %s
                svc auth reject --auth-id %s</pre>
                    <p>The session starts as soon as it is approved; a rejection is final.</p>""".formatted(
                Branding.escape(check.srcOwner()), Branding.escape(check.srcNode()),
                Branding.escape(check.dstNode()), Branding.escape(check.localUser()), check.authId(), check.authId()));
    }
}
