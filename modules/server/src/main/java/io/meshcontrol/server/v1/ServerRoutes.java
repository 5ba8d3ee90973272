package io.meshcontrol.server.v1;

import io.meshcontrol.api.ServerInfo;
import io.meshcontrol.api.VersionInfo;
import io.meshcontrol.server.http.Reply;
import io.meshcontrol.server.http.Routes;
import java.util.Map;
import java.util.function.BooleanSupplier;

/** {@code /version}, {@code /health} (public) and {@code /api/v1/server}. */
public final class ServerRoutes {

    private final ServerInfo info;
    private final BooleanSupplier databaseReachable;

    /** @param databaseReachable whether the database answers, for {@code /health} */
    public ServerRoutes(ServerInfo info, BooleanSupplier databaseReachable) {
        this.info = info;
        this.databaseReachable = databaseReachable;
    }

    public void register(Routes routes) {
        VersionInfo version = new VersionInfo(info.version(), Runtime.version().toString());
        routes.addPublic("GET", "/version", request -> Reply.ok(version));
        routes.addPublic("GET", "/health", request -> databaseReachable.getAsBoolean()
                ? Reply.ok(Map.of("status", "pass"))
                : new Reply(503, Map.of("status", "fail", "detail", "the database does not answer"), Map.of()));
        routes.add("GET", "/api/v1/server", request -> {
            request.caller();
            return Reply.ok(info);
        });
    }
}
