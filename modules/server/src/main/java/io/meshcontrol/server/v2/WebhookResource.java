package io.meshcontrol.server.v2;

import io.meshcontrol.core.model.WebhookEndpoint;
import io.meshcontrol.core.state.Webhooks;
import io.meshcontrol.server.http.Reply;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The vendor's webhooks ({@code mesh_webhook}): {@code /tailnet/{t}/webhooks} to list and create,
 * {@code /webhooks/{endpointId}} to read, change subscriptions and delete, {@code /test} and {@code /rotate}. The
 * secret is in the answers of create and rotate only.
 */
public final class WebhookResource {

    /** A create or update body: an update reads only {@code subscriptions}. */
    record Body(String endpointUrl, String providerType, List<String> subscriptions) {
    }

    private final Webhooks webhooks;

    public WebhookResource(Webhooks webhooks) {
        this.webhooks = webhooks;
    }

    public void register(V2Routes v2) {
        v2.tailnet("GET", "/webhooks", request -> Reply.ok(Map.of("webhooks",
                webhooks.list(request.caller()).stream().map(e -> view(e, null)).toList())))
                .doc(Webhooks.READ_SCOPE, "{\"webhooks\":[...]}, without secrets");
        v2.tailnet("POST", "/webhooks", request -> {
            Body body = request.requiredBody(Body.class);
            Webhooks.Issued issued = webhooks.create(request.caller(), new Webhooks.Fields(body.endpointUrl(),
                    body.providerType(), body.subscriptions()));
            return Reply.ok(view(issued.endpoint(), issued.secret()));
        }).doc(Webhooks.WRITE_SCOPE, "Creates an endpoint; the answer carries its secret, shown this once");
        v2.global("GET", "/webhooks/{endpointId}", request -> Reply.ok(view(
                webhooks.get(request.caller(), request.pathParam("endpointId")), null)))
                .doc(Webhooks.READ_SCOPE, "One endpoint, without its secret");
        v2.global("PATCH", "/webhooks/{endpointId}", request -> Reply.ok(view(webhooks.update(request.caller(),
                request.pathParam("endpointId"), request.requiredBody(Body.class).subscriptions()), null)))
                .doc(Webhooks.WRITE_SCOPE, "Replaces the subscriptions (URL and provider are fixed)");
        v2.global("DELETE", "/webhooks/{endpointId}", request -> {
            webhooks.delete(request.caller(), request.pathParam("endpointId"));
            return Reply.ok(Map.of());
        }).doc(Webhooks.WRITE_SCOPE, "Deletes the endpoint with its pending and past deliveries");
        v2.global("POST", "/webhooks/{endpointId}/test", request -> {
            webhooks.test(request.caller(), request.pathParam("endpointId"));
            return new Reply(202, Map.of(), Map.of());
        }).doc(Webhooks.WRITE_SCOPE, "Queues a test event to this endpoint (needs no subscription)");
        v2.global("POST", "/webhooks/{endpointId}/rotate", request -> {
            Webhooks.Issued issued = webhooks.rotate(request.caller(), request.pathParam("endpointId"));
            return Reply.ok(view(issued.endpoint(), issued.secret()));
        }).doc(Webhooks.WRITE_SCOPE, "A new secret, in the answer; the old one signs no more");
    }

    private static Map<String, Object> view(WebhookEndpoint e, String secret) {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("endpointId", e.id());
        v.put("endpointUrl", e.url());
        v.put("providerType", e.provider());
        v.put("creatorLoginName", e.creator().startsWith("user:") ? e.creator().substring(5) : "");
        v.put("created", e.created());
        v.put("lastModified", e.lastModified());
        v.put("subscriptions", e.subscriptions());
        if (secret != null) {
            v.put("secret", secret);
        }
        return v;
    }
}
