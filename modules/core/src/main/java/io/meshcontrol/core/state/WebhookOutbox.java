package io.meshcontrol.core.state;

import io.meshcontrol.core.event.MeshEvent;
import io.meshcontrol.core.model.WebhookEndpoint;
import io.meshcontrol.core.store.WebhookStore;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/**
 * Where events become webhook deliveries: each event an endpoint hears is written to the outbox (one pending
 * delivery per endpoint, the event as a one-element array) in the transaction of the change that raised it, so a
 * committed change always has its deliveries, across a crash too, and a rolled-back one has none. This is the only
 * way a delivery is made. Rendering an event is the deliverer's ({@link Webhooks#deliverWith}); until one is set
 * (core's own tests, a server whose delivery has not started) nothing is written.
 */
final class WebhookOutbox {

    private final Jdbi jdbi;
    private final WebhookStore store;
    private final Clock clock;
    private volatile Webhooks.EventRenderer renderer;
    private volatile Runnable written = () -> { };

    WebhookOutbox(Jdbi jdbi, WebhookStore store, Clock clock) {
        this.jdbi = jdbi;
        this.store = store;
        this.clock = clock;
    }

    /** @param written told after a transaction that wrote deliveries has committed; it must only take note */
    void deliverWith(Webhooks.EventRenderer renderer, Runnable written) {
        this.renderer = renderer;
        this.written = written;
    }

    /** Writes the deliveries of {@code event} in the transaction of {@code handle}. */
    void write(Handle handle, MeshEvent event) {
        Webhooks.EventRenderer render = renderer;
        if (render == null || !deliverable(event)) {
            return; // most events (a client's update, a node going online) are no webhook event: no query
        }
        List<WebhookEndpoint> hearing = store.all(handle).stream().filter(endpoint -> hears(endpoint, event)).toList();
        if (hearing.isEmpty()) {
            return;
        }
        String events = "[" + render.render(event) + "]";
        Instant now = clock.instant();
        for (WebhookEndpoint endpoint : hearing) {
            store.enqueue(handle, endpoint.id(), events, List.of(event.type()), now);
        }
        handle.afterCommit(() -> written.run());
    }

    /**
     * For an event of a change that is not written to the database (a policy file reload, a report, a test): its
     * deliveries in a transaction of their own, written before this returns. Endpoints are looked up first, so that
     * an event no endpoint hears opens no write transaction (the feed may publish while another one is open).
     */
    void writeAlone(MeshEvent event) {
        if (renderer == null || !deliverable(event)
                || jdbi.withHandle(store::all).stream().noneMatch(endpoint -> hears(endpoint, event))) {
            return;
        }
        jdbi.useTransaction(h -> write(h, event));
    }

    private static boolean deliverable(MeshEvent event) {
        return event instanceof MeshEvent.WebhookTest || Webhooks.EVENT_TYPES.contains(event.type());
    }

    /** A test event goes to the endpoint it was asked for alone. */
    private static boolean hears(WebhookEndpoint endpoint, MeshEvent event) {
        return event instanceof MeshEvent.WebhookTest test ? test.endpointId().equals(endpoint.id())
                : endpoint.hears(event.type());
    }
}
