package io.meshcontrol.server;

import io.meshcontrol.api.NewPreAuthKeyDefaults;
import io.meshcontrol.api.ServerInfo;
import io.meshcontrol.core.netmap.MapInputs;
import io.meshcontrol.core.state.Network;
import io.meshcontrol.server.docs.DocsRoutes;
import io.meshcontrol.server.http.Routes;
import io.meshcontrol.server.identity.OidcIssuers;
import io.meshcontrol.server.relay.RelayRuntime;
import io.meshcontrol.server.v1.AccessRequestRoutes;
import io.meshcontrol.server.v1.ApiKeyRoutes;
import io.meshcontrol.server.v1.AppRoutes;
import io.meshcontrol.server.live.EventStreamRoutes;
import io.meshcontrol.server.v1.AuditRoutes;
import io.meshcontrol.server.v1.LogStreamRoutes;
import io.meshcontrol.server.v1.PostureIntegrationRoutes;
import io.meshcontrol.server.v1.ServiceRoutes;
import io.meshcontrol.server.v1.DebugNodeRoutes;
import io.meshcontrol.server.v1.DnsRoutes;
import io.meshcontrol.server.v1.NodeAccessRoutes;
import io.meshcontrol.server.v1.NodeRoutes;
import io.meshcontrol.server.v1.OAuthClientRoutes;
import io.meshcontrol.server.v1.PolicyRoutes;
import io.meshcontrol.server.v1.OverviewRoutes;
import io.meshcontrol.server.v1.PreAuthKeyRoutes;
import io.meshcontrol.server.v1.ServerRoutes;
import io.meshcontrol.server.v1.SettingsRoutes;
import io.meshcontrol.server.v1.UserRoutes;
import io.meshcontrol.server.v1.WebhookRoutes;
import io.meshcontrol.server.v2.KeyRoutes;
import io.meshcontrol.server.v2.OAuthTokenRoutes;
import io.meshcontrol.server.v2.V2Routes;
import io.meshcontrol.server.v2.VendorApi;
import io.meshcontrol.server.v2.WebhookResource;
import java.time.Clock;
import java.util.List;

/**
 * The APIs: every {@code /api/v1} route (the CLI's and the console's), every {@code /api/v2} operation (the
 * vendor's API, through one {@link V2Routes}, which {@code /api/v2/docs} lists), {@code /version} and
 * {@code /health}, and the API documents.
 */
final class ApiWiring {

    private ApiWiring() {
    }

    /**
     * @param oidcIssuers checks the ID tokens of workload identities against their issuers' published keys
     * @param mapInputs what maps are built from: a node's peers and packet filter as its map carries them
     * @param instance names this run on {@code /version}
     */
    static void register(Wiring w, OidcIssuers oidcIssuers, MapInputs.Source mapInputs, RelayRuntime relay,
            String instance) {
        ServerSettings settings = w.settings();
        Network network = w.network();
        Clock clock = w.clock();
        Routes routes = w.routes();
        new UserRoutes(network.users()).register(routes);
        new ApiKeyRoutes(network.apiKeys(), clock).register(routes);
        new PreAuthKeyRoutes(network.preAuthKeys(), clock).register(routes);
        new OAuthClientRoutes(network.oauthClients()).register(routes);
        new WebhookRoutes(network.webhooks()).register(routes);
        new AppRoutes(network.apps()).register(routes);
        new LogStreamRoutes(network.logStreams()).register(routes);
        new PostureIntegrationRoutes(network.posture()).register(routes);
        new ServiceRoutes(network.vipServices()).register(routes);
        // /api/v2: every operation through one V2Routes, which /api/v2/docs lists.
        V2Routes v2 = new V2Routes(routes, network.tailnetId());
        new OAuthTokenRoutes(network.oauthClients(), oidcIssuers, w.failedCredentials()).register(v2);
        new KeyRoutes(network.preAuthKeys(), network.oauthClients(), clock).register(v2);
        new NodeRoutes(network.nodes(), network.routeApprovals(), network.routeElection(), network.snapshots(), clock,
                network.policies().locations(), network.mapContext()).register(routes);
        new SettingsRoutes(network.settings()).register(routes);
        new DnsRoutes(network.dns(), settings.baseDomain()).register(routes);
        new AuditRoutes(network.auditLog()).register(routes);
        // Server-sent events from the change feed: the console reads again what changed instead of polling.
        new EventStreamRoutes(network.snapshots(), w.json(), settings.listener().idleTimeout())
                .register(routes);
        new PolicyRoutes(network.policies()).register(routes);
        new OverviewRoutes(network.snapshots(), network.mapContext(), network.preAuthKeys(), network.apiKeys(),
                () -> relay.configuration().map(), () -> relay.relay().stunProblem(), clock).register(routes);
        new AccessRequestRoutes(network.accessRequests(), network.snapshots()).register(routes);
        // A node's peers and packet filter as its map carries them, and the policy preview.
        new NodeAccessRoutes(network.nodes(), network.policies(), mapInputs).register(routes);
        new DocsRoutes(settings.version(), settings.debugNodeApi()).register(routes);
        if (settings.debugNodeApi()) {
            new DebugNodeRoutes(network.registrations(), network.snapshots(), network.routeElection(), clock)
                    .register(routes);
        }
        ServerInfo info = new ServerInfo(settings.version(), network.tailnetId(), settings.serverUrl(),
                settings.baseDomain(), NewPreAuthKeyDefaults.STANDARD, instance, List.of());
        new ServerRoutes(info, instance, network::databaseReachable, () -> relay.relay().stunProblem(),
                () -> network.leases().holdings().stream()
                        .map(held -> new ServerInfo.Lease(held.name(), held.holder(), held.epoch())).toList())
                .register(routes);
        new VendorApi(network, settings.baseDomain(), settings.version(), clock).register(v2);
        new WebhookResource(network.webhooks()).register(v2);
    }
}
