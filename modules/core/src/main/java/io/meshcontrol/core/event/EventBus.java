package io.meshcontrol.core.event;

import java.lang.System.Logger.Level;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * In-process publish/subscribe for {@link MeshEvent}s, for observers that only take note. Nothing that must survive a
 * crash may hang off it: webhook deliveries are written in the transaction of their change instead (core.state's
 * WebhookOutbox). Delivery is synchronous on the publishing thread, often while the write transaction that made the
 * change still holds its lock, so subscribers must only enqueue; one failing subscriber does not stop the others.
 */
public final class EventBus {

    private static final System.Logger LOG = System.getLogger(EventBus.class.getName());

    private final List<Consumer<MeshEvent>> subscribers = new CopyOnWriteArrayList<>();

    public Runnable subscribe(Consumer<MeshEvent> subscriber) {
        subscribers.add(subscriber);
        return () -> subscribers.remove(subscriber);
    }

    public void publish(MeshEvent event) {
        for (Consumer<MeshEvent> subscriber : subscribers) {
            try {
                subscriber.accept(event);
            } catch (RuntimeException e) {
                LOG.log(Level.ERROR, "event subscriber failed on " + event.type(), e);
            }
        }
    }
}
