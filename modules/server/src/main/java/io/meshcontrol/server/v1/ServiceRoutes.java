package io.meshcontrol.server.v1;

import io.meshcontrol.api.ServiceList;
import io.meshcontrol.api.ServiceRequest;
import io.meshcontrol.api.ServiceView;
import io.meshcontrol.core.model.VipService;
import io.meshcontrol.core.state.VipServices;
import io.meshcontrol.server.http.Reply;
import io.meshcontrol.server.http.Routes;

/**
 * {@code /api/v1/service}: services ({@code svc:<name>}, the vendor's VIP services) with the addresses the server
 * assigns, their ports and the tags of the machines that host them; the same service as
 * {@code /api/v2/.../vip-services}.
 */
public final class ServiceRoutes {

    private final VipServices services;

    public ServiceRoutes(VipServices services) {
        this.services = services;
    }

    public void register(Routes routes) {
        routes.add("GET", "/api/v1/service", request -> Reply.ok(new ServiceList(
                services.list(request.caller()).stream().map(ServiceRoutes::view).toList())));
        routes.add("GET", "/api/v1/service/{name}", request ->
                Reply.ok(view(services.get(request.caller(), request.pathParam("name")))));
        routes.add("PUT", "/api/v1/service/{name}", request -> {
            ServiceRequest body = request.requiredBody(ServiceRequest.class);
            // Addresses are the server's: a new service gets fresh ones, a replaced one keeps its own.
            return Reply.ok(view(services.put(request.caller(), new VipService(request.pathParam("name"), null, null,
                    body.comment(), body.annotations(), body.ports(), body.tags()), null)));
        });
        routes.add("DELETE", "/api/v1/service/{name}", request -> {
            services.delete(request.caller(), request.pathParam("name"));
            return Reply.noContent();
        });
    }

    private static ServiceView view(VipService s) {
        return new ServiceView(s.name(), s.addresses(), s.comment(), s.ports(), s.tags(), s.annotations());
    }
}
