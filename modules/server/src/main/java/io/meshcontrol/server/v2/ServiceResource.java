package io.meshcontrol.server.v2;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.model.VipService;
import io.meshcontrol.core.state.VipServices;
import io.meshcontrol.server.http.Reply;

/**
 * Services ({@code mesh_service}, the vendor's VIP services): a {@code svc:<name>} with addresses of its own that
 * the server assigns from the node pool and keeps, its ports, the tags of the nodes that host it, a comment and
 * annotations kept as given. See docs/api-v2.md for what a service does here.
 */
final class ServiceResource {

    private final VipServices services;

    ServiceResource(VipServices services) {
        this.services = services;
    }

    void register(V2Routes v2) {
        v2.tailnet("GET", "/vip-services", request -> Reply.ok(new Answers.VipServices(
                services.list(request.caller()).stream().map(ServiceResource::view).toList())))
                .doc(VipServices.READ_SCOPE, "{\"vipServices\":[...]}").answers(Answers.VipServices.class);
        v2.tailnet("GET", "/vip-services/{name}", request -> Reply.ok(view(
                services.get(request.caller(), request.pathParam("name")))))
                .doc(VipServices.READ_SCOPE, "One service by name (svc:<name>)").answers(Answers.VipService.class);
        v2.tailnet("PUT", "/vip-services/{name}", request -> {
            Bodies.Service body = request.requiredBody(Bodies.Service.class);
            String name = request.pathParam("name");
            if (body.name() != null && !body.name().isEmpty() && !body.name().equals(name)) {
                throw MeshException.invalid("the body names service " + body.name() + " but the path " + name);
            }
            return Reply.ok(view(services.put(request.caller(), new VipService(name, null, null, body.comment(),
                    body.annotations(), body.ports(), body.tags()), body.addrs())));
        }).doc(VipServices.WRITE_SCOPE, "Creates or replaces a service; addresses are assigned by the server (send "
                + "none, or the ones it has); the nodes carrying one of its tags host it")
                .takes(Bodies.Service.class).answers(Answers.VipService.class);
        v2.tailnet("DELETE", "/vip-services/{name}", request -> {
            services.delete(request.caller(), request.pathParam("name"));
            return Reply.ok(Answers.Empty.INSTANCE);
        }).doc(VipServices.WRITE_SCOPE, "Removes a service").answers(Answers.Empty.class);
    }

    private static Answers.VipService view(VipService s) {
        return new Answers.VipService(s.name(), s.addresses(), s.comment(), s.annotations(), s.ports(), s.tags());
    }
}
