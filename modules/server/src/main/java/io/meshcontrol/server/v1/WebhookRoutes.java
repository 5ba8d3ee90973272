package io.meshcontrol.server.v1;

import io.meshcontrol.api.IssuedWebhook;
import io.meshcontrol.api.WebhookDeliveryList;
import io.meshcontrol.api.WebhookDeliveryView;
import io.meshcontrol.api.WebhookEventTypes;
import io.meshcontrol.api.WebhookList;
import io.meshcontrol.api.WebhookRequest;
import io.meshcontrol.api.WebhookView;
import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.model.WebhookDelivery;
import io.meshcontrol.core.model.WebhookEndpoint;
import io.meshcontrol.core.state.Webhooks;
import io.meshcontrol.server.http.Reply;
import io.meshcontrol.server.http.Routes;
import java.util.Map;

/**
 * {@code /api/v1/webhook}: endpoints (create, list, read, change subscriptions, delete), {@code rotate} and
 * {@code test}, the subscribable event types and an endpoint's last 100 deliveries.
 */
public final class WebhookRoutes {

    private final Webhooks webhooks;

    public WebhookRoutes(Webhooks webhooks) {
        this.webhooks = webhooks;
    }

    public void register(Routes routes) {
        routes.add("GET", "/api/v1/webhook", request -> Reply.ok(new WebhookList(
                webhooks.list(request.caller()).stream().map(WebhookRoutes::view).toList())));
        routes.add("POST", "/api/v1/webhook", request -> {
            WebhookRequest body = request.requiredBody(WebhookRequest.class);
            return Reply.created(issued(webhooks.create(request.caller(),
                    new Webhooks.Fields(body.url(), body.provider(), body.subscriptions()))));
        });
        routes.add("GET", "/api/v1/webhook/event-types", request -> {
            request.caller().require(Webhooks.READ_SCOPE);
            return Reply.ok(new WebhookEventTypes(Webhooks.EVENT_TYPES));
        });
        routes.add("GET", "/api/v1/webhook/{endpointId}", request ->
                Reply.ok(view(webhooks.get(request.caller(), request.pathParam("endpointId")))));
        routes.add("PATCH", "/api/v1/webhook/{endpointId}", request -> Reply.ok(view(webhooks.update(request.caller(),
                request.pathParam("endpointId"), request.requiredBody(WebhookRequest.class).subscriptions()))));
        routes.add("DELETE", "/api/v1/webhook/{endpointId}", request -> {
            webhooks.delete(request.caller(), request.pathParam("endpointId"));
            return Reply.noContent();
        });
        routes.add("POST", "/api/v1/webhook/{endpointId}/rotate", request ->
                Reply.ok(issued(webhooks.rotate(request.caller(), request.pathParam("endpointId")))));
        routes.add("POST", "/api/v1/webhook/{endpointId}/test", request -> {
            webhooks.test(request.caller(), request.pathParam("endpointId"));
            return new Reply(202, null, Map.of());
        });
        routes.add("GET", "/api/v1/webhook/{endpointId}/deliveries", request -> {
            Caller caller = request.caller();
            String id = request.pathParam("endpointId");
            boolean mail = "email".equals(webhooks.get(caller, id).provider());
            return Reply.ok(new WebhookDeliveryList(webhooks.deliveries(caller, id).stream()
                    .map(d -> view(d, mail)).toList()));
        });
    }

    static WebhookView view(WebhookEndpoint e) {
        return new WebhookView(e.id(), e.url(), e.provider(), e.subscriptions(), e.creator(), e.created(),
                e.lastModified());
    }

    private static IssuedWebhook issued(Webhooks.Issued issued) {
        return new IssuedWebhook(view(issued.endpoint()), issued.secret());
    }

    /** The spec's status of a delivery: the HTTP status, {@code sent} for e-mail the server took, none without. */
    private static WebhookDeliveryView view(WebhookDelivery d, boolean mail) {
        String status = mail && d.succeeded() ? "sent" : d.status() == 0 ? null : Integer.toString(d.status());
        return new WebhookDeliveryView(d.id(), d.eventTypes(), status, d.error(), d.attempts(),
                d.duration().toMillis(), d.finishedAt());
    }
}
