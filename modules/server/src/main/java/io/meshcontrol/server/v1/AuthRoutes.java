package io.meshcontrol.server.v1;

import io.meshcontrol.api.AuthRegisterRequest;
import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.state.PendingLogins;
import io.meshcontrol.core.state.Registrations;
import io.meshcontrol.core.state.RouteElection;
import io.meshcontrol.core.state.Snapshots;
import io.meshcontrol.server.http.Reply;
import io.meshcontrol.server.http.Routes;
import io.meshcontrol.server.login.MachineLogin;
import java.time.Clock;

/**
 * Interactive login: the page a machine's AuthURL opens ({@code /register/{authId}}: the administrator's command,
 * or with OIDC on the issuer's login), and {@code POST /api/v1/auth/register}, which completes it for a user.
 */
public final class AuthRoutes {

    private final PendingLogins logins;
    private final RouteElection election;
    private final Snapshots snapshots;
    private final Clock clock;
    private final MachineLogin machineLogin;

    /**
     * @param snapshots where the node's online state is read (a re-login may come from a connected node)
     * @param machineLogin what the AuthURL opens: {@link MachineLogin#byAdministrator}, or the OIDC login
     */
    public AuthRoutes(PendingLogins logins, RouteElection election, Snapshots snapshots, Clock clock,
            MachineLogin machineLogin) {
        this.logins = logins;
        this.election = election;
        this.snapshots = snapshots;
        this.clock = clock;
        this.machineLogin = machineLogin;
    }

    public void register(Routes routes) {
        routes.add("POST", "/api/v1/auth/register", request -> {
            AuthRegisterRequest body = request.requiredBody(AuthRegisterRequest.class);
            if (body.user() == null || body.authId() == null) {
                throw MeshException.invalid("auth/register needs \"user\" and \"authId\"");
            }
            Registrations.Registered registered = logins.complete(request.caller(), body.authId(), body.user());
            return Reply.ok(Views.node(registered.node(), registered.user(),
                    snapshots.current().isOnline(registered.node().id()), election.current(), clock.instant()));
        });
        routes.addPublic("GET", "/register/{authId}", request -> {
            String authId = request.pathParam("authId");
            if (!authId.matches("[A-Za-z0-9]{1,64}") || !logins.isPending(authId)) {
                throw MeshException.notFound("no pending login with this id; run tailscale up again for a new link");
            }
            return machineLogin.start(authId);
        });
    }
}
