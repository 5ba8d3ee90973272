package io.meshcontrol.gui.screen;

import io.meshcontrol.api.MeshClient;
import io.meshcontrol.api.ServerEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import javafx.application.Platform;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;

/**
 * Follows the server's event stream on a thread of its own and hands each {@link Change} to the screens on the
 * JavaFX thread, instead of the screens polling. A lost stream is opened again (after a pause that grows to
 * {@link #LONGEST_PAUSE_MS} while the server stays away); its return is {@link Change#everything()}.
 */
public final class LiveUpdates implements AutoCloseable {

    private static final long FIRST_PAUSE_MS = 500;
    private static final long LONGEST_PAUSE_MS = 10_000;

    private final MeshClient client;
    private final List<Consumer<Change>> listeners = new ArrayList<>();
    private final ReadOnlyBooleanWrapper connected = new ReadOnlyBooleanWrapper(false);
    private final Thread thread;
    private volatile boolean closed;
    private volatile boolean opened;

    public LiveUpdates(MeshClient client) {
        this.client = client;
        this.thread = new Thread(this::follow, "svc-admin-events");
        thread.setDaemon(true);
    }

    /** Called on the JavaFX thread with each change, from {@link #start()} on. */
    public void listen(Consumer<Change> listener) {
        listeners.add(listener);
    }

    public void start() {
        thread.start();
    }

    private void follow() {
        long pause = FIRST_PAUSE_MS;
        while (!closed) {
            opened = false;
            try {
                client.events(this::onFx);
            } catch (RuntimeException e) {
                // Unreachable, refused or broken: shown as not live, tried again below.
            }
            Platform.runLater(() -> connected.set(false));
            if (closed) {
                return;
            }
            if (opened) {
                pause = FIRST_PAUSE_MS; // it was open: a new loss starts short again
            }
            try {
                Thread.sleep(pause); // a pause between attempts, not a wait for a condition
            } catch (InterruptedException e) {
                return;
            }
            pause = Math.min(pause * 2, LONGEST_PAUSE_MS);
        }
    }

    private void onFx(ServerEvent event) {
        Change change = switch (event.type()) {
            case "ready" -> {
                opened = true;
                yield Change.everything();
            }
            case "change" -> Change.parse(event.data());
            default -> null;
        };
        if (change != null) {
            Platform.runLater(() -> {
                connected.set(true);
                if (!closed) {
                    List.copyOf(listeners).forEach(listener -> listener.accept(change));
                }
            });
        }
    }

    /** Whether the stream is open now (the window says when it is not). */
    public ReadOnlyBooleanProperty connected() {
        return connected.getReadOnlyProperty();
    }

    @Override
    public void close() {
        closed = true;
        thread.interrupt();
    }
}
