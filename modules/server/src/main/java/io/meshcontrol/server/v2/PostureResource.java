package io.meshcontrol.server.v2;

import io.meshcontrol.core.model.PostureIntegration;
import io.meshcontrol.core.state.Posture;
import io.meshcontrol.server.http.Reply;

/**
 * Posture integrations: the six providers this server takes are stored (one per provider, the secret write-only);
 * {@code fleet} and {@code huntress} are refused by name.
 */
final class PostureResource {

    private final Posture posture;

    PostureResource(Posture posture) {
        this.posture = posture;
    }

    void register(V2Routes v2) {
        v2.tailnet("GET", "/posture/integrations", request -> Reply.ok(new Answers.PostureIntegrations(
                posture.integrations(request.caller()).stream().map(PostureResource::view).toList())))
                .doc(Posture.INTEGRATIONS_READ_SCOPE, "{\"integrations\":[...]}")
                .answers(Answers.PostureIntegrations.class);
        v2.tailnet("POST", "/posture/integrations", request -> {
            Bodies.PostureIntegration body = request.requiredBody(Bodies.PostureIntegration.class);
            return Reply.ok(view(posture.createIntegration(request.caller(),
                    DeviceResource.required(body.provider(), "provider"), change(body))));
        }).doc(Posture.INTEGRATIONS_WRITE_SCOPE, "Partial: stores an integration for falcon, sentinelone, intune, "
                + "jamfpro, kandji or kolide (clientSecret required, never returned); fleet and huntress are refused "
                + "with 400").takes(Bodies.PostureIntegration.class).answers(Answers.PostureIntegration.class);
        v2.global("GET", "/posture/integrations/{id}", request -> Reply.ok(view(
                posture.integration(request.caller(), request.pathParam("id")))))
                .doc(Posture.INTEGRATIONS_READ_SCOPE, "One integration").answers(Answers.PostureIntegration.class);
        v2.global("PATCH", "/posture/integrations/{id}", request -> {
            Bodies.PostureIntegration body = request.requiredBody(Bodies.PostureIntegration.class);
            return Reply.ok(view(posture.updateIntegration(request.caller(), request.pathParam("id"), change(body))));
        }).doc(Posture.INTEGRATIONS_WRITE_SCOPE, "Changes cloudId, clientId, tenantId, clientSecret; absent or "
                + "empty keeps the value; provider is ignored")
                .takes(Bodies.PostureIntegration.class).answers(Answers.PostureIntegration.class);
        v2.global("DELETE", "/posture/integrations/{id}", request -> {
            posture.deleteIntegration(request.caller(), request.pathParam("id"));
            return Reply.ok(Answers.Empty.INSTANCE);
        }).doc(Posture.INTEGRATIONS_WRITE_SCOPE, "Removes an integration").answers(Answers.Empty.class);
    }

    private static Posture.IntegrationChange change(Bodies.PostureIntegration body) {
        return new Posture.IntegrationChange(body.cloudId(), body.clientId(), body.tenantId(), body.clientSecret());
    }

    private static Answers.PostureIntegration view(PostureIntegration i) {
        return new Answers.PostureIntegration(i.id(), i.provider(), i.cloudId(), i.clientId(), i.tenantId());
    }
}
