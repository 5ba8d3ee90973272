package io.meshcontrol.server.v1;

import io.meshcontrol.api.PostureIntegrationList;
import io.meshcontrol.api.PostureIntegrationRequest;
import io.meshcontrol.api.PostureIntegrationView;
import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.model.PostureIntegration;
import io.meshcontrol.core.state.Posture;
import io.meshcontrol.server.http.Reply;
import io.meshcontrol.server.http.Routes;

/**
 * {@code /api/v1/posture-integration}: device posture integrations, one per provider, the client secret write-only;
 * the same service as {@code /api/v2/.../posture/integrations}.
 */
public final class PostureIntegrationRoutes {

    private final Posture posture;

    public PostureIntegrationRoutes(Posture posture) {
        this.posture = posture;
    }

    public void register(Routes routes) {
        routes.add("GET", "/api/v1/posture-integration", request -> Reply.ok(new PostureIntegrationList(
                posture.integrations(request.caller()).stream().map(PostureIntegrationRoutes::view).toList())));
        routes.add("POST", "/api/v1/posture-integration", request -> {
            PostureIntegrationRequest body = request.requiredBody(PostureIntegrationRequest.class);
            if (body.provider() == null || body.provider().isBlank()) {
                throw MeshException.invalid("provider is required");
            }
            return Reply.created(view(posture.createIntegration(request.caller(), body.provider(), change(body))));
        });
        routes.add("GET", "/api/v1/posture-integration/{integrationId}", request ->
                Reply.ok(view(posture.integration(request.caller(), request.pathParam("integrationId")))));
        routes.add("PATCH", "/api/v1/posture-integration/{integrationId}", request -> Reply.ok(view(posture.updateIntegration(
                request.caller(), request.pathParam("integrationId"),
                change(request.requiredBody(PostureIntegrationRequest.class))))));
        routes.add("DELETE", "/api/v1/posture-integration/{integrationId}", request -> {
            posture.deleteIntegration(request.caller(), request.pathParam("integrationId"));
            return Reply.noContent();
        });
    }

    private static Posture.IntegrationChange change(PostureIntegrationRequest body) {
        return new Posture.IntegrationChange(body.cloudId(), body.clientId(), body.tenantId(), body.clientSecret());
    }

    private static PostureIntegrationView view(PostureIntegration i) {
        return new PostureIntegrationView(i.id(), i.provider(), i.cloudId(), i.clientId(), i.tenantId(), i.updated());
    }
}
