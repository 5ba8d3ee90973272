package io.meshcontrol.server.v2;

import io.meshcontrol.core.model.WebhookEndpoint;
import io.meshcontrol.core.state.Webhooks;
import io.meshcontrol.server.http.Reply;
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
        v2.tailnet("GET", "/webhooks", request -> Reply.ok(new Answers.Webhooks(
                webhooks.list(request.caller()).stream().map(e -> view(e, null)).toList())))
                .doc(Webhooks.READ_SCOPE, "{\"webhooks\":[...]}, without secrets").answers(Answers.Webhooks.class);
        v2.tailnet("POST", "/webhooks", request -> {
            Body body = request.requiredBody(Body.class);
            Webhooks.Issued issued = webhooks.create(request.caller(), new Webhooks.Fields(body.endpointUrl(),
                    body.providerType(), body.subscriptions()));
            return Reply.ok(view(issued.endpoint(), issued.secret()));
        }).doc(Webhooks.WRITE_SCOPE, "Creates an endpoint; the answer carries its secret, shown this once")
                .takes(Body.class).answers(Answers.Webhook.class);
        v2.global("GET", "/webhooks/{endpointId}", request -> Reply.ok(view(
                webhooks.get(request.caller(), request.pathParam("endpointId")), null)))
                .doc(Webhooks.READ_SCOPE, "One endpoint, without its secret").answers(Answers.Webhook.class);
        v2.global("PATCH", "/webhooks/{endpointId}", request -> Reply.ok(view(webhooks.update(request.caller(),
                request.pathParam("endpointId"), request.requiredBody(Body.class).subscriptions()), null)))
                .doc(Webhooks.WRITE_SCOPE, "Replaces the subscriptions (URL and provider are fixed)")
                .takes(Body.class).answers(Answers.Webhook.class);
        v2.global("DELETE", "/webhooks/{endpointId}", request -> {
            webhooks.delete(request.caller(), request.pathParam("endpointId"));
            return Reply.ok(Answers.Empty.INSTANCE);
        }).doc(Webhooks.WRITE_SCOPE, "Deletes the endpoint with its pending and past deliveries")
                .answers(Answers.Empty.class);
        v2.global("POST", "/webhooks/{endpointId}/test", request -> {
            webhooks.test(request.caller(), request.pathParam("endpointId"));
            return new Reply(202, Answers.Empty.INSTANCE, Map.of());
        }).doc(Webhooks.WRITE_SCOPE, "Queues a test event to this endpoint (needs no subscription)")
                .answers(202, "application/json", Answers.Empty.class);
        v2.global("POST", "/webhooks/{endpointId}/rotate", request -> {
            Webhooks.Issued issued = webhooks.rotate(request.caller(), request.pathParam("endpointId"));
            return Reply.ok(view(issued.endpoint(), issued.secret()));
        }).doc(Webhooks.WRITE_SCOPE, "A new secret, in the answer; the old one signs no more")
                .answers(Answers.Webhook.class);
    }

    private static Answers.Webhook view(WebhookEndpoint e, String secret) {
        return new Answers.Webhook(e.id(), e.url(), e.provider(),
                e.creator().startsWith("user:") ? e.creator().substring(5) : "", e.created(), e.lastModified(),
                e.subscriptions(), secret);
    }
}
