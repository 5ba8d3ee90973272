package io.meshcontrol.core.state;

import io.meshcontrol.core.store.ChangeLog;
import io.meshcontrol.core.store.CommitListener;
import java.util.function.Consumer;
import org.jdbi.v3.core.Handle;

/**
 * A value the network keeps in memory beside its rows, for building maps (the DNS, the services, the apps): read by
 * anyone without a lock, and replaced only by a change in a write transaction ({@link Writer}), when that commits.
 * The commit runs its callbacks before the writer lock is released, so values are put in force in the order their
 * changes committed, and a change reading the value under the lock reads every committed one. Each change also goes
 * into the change log as its {@code kind}, so other instances sharing the database read the value again.
 */
final class InForce<T> {

    private final Writer writer;
    private final ChangeLog.Kind kind;
    private volatile T value;
    private volatile Consumer<T> listener = value -> { };

    InForce(T initial, Writer writer, ChangeLog.Kind kind) {
        this.value = initial;
        this.writer = writer;
        this.kind = kind;
    }

    T get() {
        return value;
    }

    /**
     * Set once by {@link Network}: called with each new value as it is put in force, under the writer lock (it must
     * only take note: {@link MapContextState} puts the value in the map context and publishes it).
     */
    void onChange(Consumer<T> listener) {
        this.listener = listener;
    }

    /**
     * Puts {@code next}, read again after another instance changed it ({@link ChangeFollower}, under the writer lock),
     * in force; the value in force already changes nothing.
     */
    void follow(T next) {
        if (!next.equals(value)) {
            value = next;
            listener.accept(next);
        }
    }

    /**
     * Puts {@code next} in force when the transaction of {@code handle} commits, never if it rolls back, and tells the
     * other instances in that transaction.
     */
    void putOnCommit(Handle handle, T next) {
        CommitListener.requireTransaction(handle);
        writer.logChange(handle, kind);
        handle.afterCommit(() -> {
            value = next;
            listener.accept(next);
        });
    }
}
