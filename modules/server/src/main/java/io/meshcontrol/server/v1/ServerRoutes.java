package io.meshcontrol.server.v1;

import io.meshcontrol.api.MeshClient;
import io.meshcontrol.api.ServerInfo;
import io.meshcontrol.api.VersionInfo;
import io.meshcontrol.server.http.Reply;
import io.meshcontrol.server.http.Routes;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** {@code /version}, {@code /health} (public) and {@code /api/v1/server}. */
public final class ServerRoutes {

    private final ServerInfo info;
    private final String instance;
    private final BooleanSupplier databaseReachable;
    private final Supplier<Optional<String>> stunProblem;
    private final Supplier<List<ServerInfo.Lease>> leases;

    /**
     * @param instance          names this run of the server on {@code /version} (the local credential records it)
     * @param databaseReachable whether the database answers, for {@code /health}
     * @param stunProblem       why STUN is not answering although it is on (its port is busy), if so
     * @param leases            the leases of singleton work as held now, for {@code /api/v1/server}
     */
    public ServerRoutes(ServerInfo info, String instance, BooleanSupplier databaseReachable,
            Supplier<Optional<String>> stunProblem, Supplier<List<ServerInfo.Lease>> leases) {
        this.info = info;
        this.leases = leases;
        this.instance = instance;
        this.databaseReachable = databaseReachable;
        this.stunProblem = stunProblem;
    }

    public void register(Routes routes) {
        VersionInfo version = new VersionInfo(info.version(), Runtime.version().toString());
        routes.addPublic("GET", "/version",
                request -> new Reply(200, version, Map.of(MeshClient.INSTANCE_HEADER, instance)));
        routes.addPublic("GET", "/health", request -> health());
        routes.add("GET", "/api/v1/server", request -> {
            request.caller();
            return Reply.ok(info.withLeases(leases.get()));
        });
    }

    /**
     * Fails (503) when the database does not answer; warns (200: the network still works, only NAT traversal is
     * harder) while STUN cannot bind its port.
     */
    private Reply health() {
        if (!databaseReachable.getAsBoolean()) {
            return new Reply(503, Map.of("status", "fail", "detail", "the database does not answer"), Map.of());
        }
        return stunProblem.get()
                .map(problem -> Reply.ok(Map.of("status", "warn", "detail", "STUN unavailable: " + problem)))
                .orElseGet(() -> Reply.ok(Map.of("status", "pass")));
    }
}
