package io.meshcontrol.server.v1;

import io.meshcontrol.api.AuthRegisterRequest;
import io.meshcontrol.api.PendingRegistrationView;
import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.state.PendingLogins;
import io.meshcontrol.core.state.Registrations;
import io.meshcontrol.core.state.RouteElection;
import io.meshcontrol.core.state.Snapshots;
import io.meshcontrol.server.http.Reply;
import io.meshcontrol.server.http.Routes;
import io.meshcontrol.server.login.RegisterPage;
import java.time.Clock;

/**
 * Interactive login: the page a machine's AuthURL opens ({@code /register/{authId}}, {@link RegisterPage}), and the
 * routes the console and {@code svc auth register} use: {@code GET /api/v1/auth/register/{authId}} shows the waiting
 * machine, {@code POST /api/v1/auth/register} completes its login for a user or for tags (and approves it, if asked),
 * {@code DELETE /api/v1/auth/register/{authId}} refuses it.
 */
public final class AuthRoutes {

    private final PendingLogins logins;
    private final RouteElection election;
    private final Snapshots snapshots;
    private final Clock clock;
    private final RegisterPage page;

    /**
     * @param snapshots where the node's online state is read (a re-login may come from a connected node)
     * @param page what the AuthURL opens
     */
    public AuthRoutes(PendingLogins logins, RouteElection election, Snapshots snapshots, Clock clock,
            RegisterPage page) {
        this.logins = logins;
        this.election = election;
        this.snapshots = snapshots;
        this.clock = clock;
        this.page = page;
    }

    public void register(Routes routes) {
        routes.add("POST", "/api/v1/auth/register", request -> {
            AuthRegisterRequest body = request.requiredBody(AuthRegisterRequest.class);
            boolean tagged = body.tags() != null && !body.tags().isEmpty();
            if ((body.user() == null && !tagged) || body.authId() == null) {
                throw MeshException.invalid("auth/register needs \"authId\" and \"user\" (or \"tags\")");
            }
            Registrations.Registered registered = logins.complete(request.caller(), body.authId(),
                    new PendingLogins.Choice(body.user(), body.tags(), Boolean.TRUE.equals(body.approve())));
            return Reply.ok(Views.node(registered.node(), registered.user(),
                    snapshots.current().isOnline(registered.node().id()), election.current(), clock.instant()));
        });
        routes.add("GET", "/api/v1/auth/register/{authId}", request -> {
            String authId = authId(request.pathParam("authId"));
            PendingLogins.Facts facts = logins.facts(request.caller(), authId);
            return Reply.ok(new PendingRegistrationView(authId, facts.hostname(), facts.os(), facts.osVersion(),
                    facts.clientVersion(), facts.nodeKey(), facts.requestedTags(), facts.ephemeral(), facts.expires(),
                    facts.currentUser(), facts.currentTags(), facts.devicesApprovalOn(), facts.applicableTags()));
        });
        routes.add("DELETE", "/api/v1/auth/register/{authId}", request -> {
            logins.reject(request.caller(), authId(request.pathParam("authId")));
            return Reply.noContent();
        });
        routes.addPublic("GET", "/register/{authId}", request -> {
            String authId = request.pathParam("authId");
            boolean pending = isAuthId(authId) && logins.isPending(authId);
            return page.open(authId, pending, request.query("login").filter("self"::equals).isPresent(),
                    request.exchange());
        });
    }

    private static boolean isAuthId(String authId) {
        return authId.matches("[A-Za-z0-9]{1,64}");
    }

    /** An id that cannot be one is unknown, as a lapsed one is (nothing else of it is echoed). */
    private static String authId(String authId) {
        if (!isAuthId(authId)) {
            throw MeshException.notFound("no pending login with this id; run tailscale up again for a new link");
        }
        return authId;
    }
}
