package io.meshcontrol.server.v1;

import io.meshcontrol.api.AppConnectorView;
import io.meshcontrol.api.AppList;
import io.meshcontrol.api.AppRequest;
import io.meshcontrol.api.AppView;
import io.meshcontrol.core.model.App;
import io.meshcontrol.core.state.Apps;
import io.meshcontrol.server.http.Reply;
import io.meshcontrol.server.http.Routes;
import java.util.List;

/** {@code /api/v1/apps} and {@code /api/v1/app/{id}}: apps and the connectors assigned to them. */
public final class AppRoutes {

    private final Apps apps;

    public AppRoutes(Apps apps) {
        this.apps = apps;
    }

    public void register(Routes routes) {
        routes.add("GET", "/api/v1/apps", request -> Reply.ok(new AppList(
                apps.list(request.caller()).stream().map(AppRoutes::view).toList())));
        routes.add("POST", "/api/v1/apps", request -> Reply.created(view(apps.create(request.caller(),
                fields(request.requiredBody(AppRequest.class))))));
        routes.add("GET", "/api/v1/app/{id}", request -> Reply.ok(view(apps.get(request.caller(),
                request.pathId("id")))));
        routes.add("PUT", "/api/v1/app/{id}", request -> Reply.ok(view(apps.update(request.caller(),
                request.pathId("id"), fields(request.requiredBody(AppRequest.class))))));
        routes.add("DELETE", "/api/v1/app/{id}", request -> {
            apps.delete(request.caller(), request.pathId("id"));
            return Reply.noContent();
        });
    }

    private static App fields(AppRequest body) {
        return new App(0, body.name(), body.description(), orEmpty(body.domains()), orEmpty(body.connectors()),
                orEmpty(body.routes()), null, null);
    }

    private static List<String> orEmpty(List<String> list) {
        return list == null ? List.of() : list;
    }

    static AppView view(Apps.View view) {
        App app = view.app();
        return new AppView(String.valueOf(app.id()), app.name(), app.description(), app.domains(), app.connectors(), app.routes(),
                view.connectors().stream().map(c -> new AppConnectorView(String.valueOf(c.nodeId()), c.name(), c.tags(), c.online(),
                        c.learnedRoutes(), c.pendingRoutes())).toList(), app.createdAt(), app.updatedAt());
    }
}
