package io.meshcontrol.server.v2;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.server.http.ApiHandler;
import io.meshcontrol.server.http.Routes;

/**
 * Where {@code /api/v2} operations are registered. Resources of the network hang off
 * {@code /api/v2/tailnet/{tailnet}}, whose segment is {@code -} (the credential's own network, what every vendor
 * client sends by default) or this network's ID; any other name is a network that does not exist here (404). Devices,
 * users, webhooks and posture integrations are addressed by id, with no network in the path.
 */
public final class V2Routes {

    public static final String TAILNET = "/api/v2/tailnet/{tailnet}";

    private final Routes routes;
    private final String tailnetId;

    public V2Routes(Routes routes, String tailnetId) {
        this.routes = routes;
        this.tailnetId = tailnetId;
    }

    /** An operation on the network: {@code path} follows {@code /api/v2/tailnet/{tailnet}}. */
    public V2Routes tailnet(String method, String path, ApiHandler handler) {
        routes.add(method, TAILNET + path, request -> {
            String tailnet = request.pathParam("tailnet");
            if (!tailnet.equals("-") && !tailnet.equals(tailnetId)) {
                throw MeshException.notFound("tailnet not found: " + tailnet);
            }
            return handler.handle(request);
        });
        return this;
    }

    /** An operation addressed without a network: {@code path} follows {@code /api/v2}. */
    public V2Routes global(String method, String path, ApiHandler handler) {
        routes.add(method, "/api/v2" + path, handler);
        return this;
    }

    /** An operation anyone may call (the token endpoints authenticate their own credentials). */
    public V2Routes open(String method, String path, ApiHandler handler) {
        routes.addPublic(method, "/api/v2" + path, handler);
        return this;
    }
}
