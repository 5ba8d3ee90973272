package io.meshcontrol.core.store;

import java.util.concurrent.locks.ReentrantLock;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.HandleCallback;
import org.jdbi.v3.core.transaction.DelegatingTransactionHandler;
import org.jdbi.v3.core.transaction.TransactionHandler;
import org.jdbi.v3.core.transaction.TransactionIsolationLevel;

/**
 * One transaction at a time, queued on a fair Java lock. SQLite allows one writer anyway; without this,
 * waiting writers sit in SQLite's busy handler, which sleeps in native code and so holds on to its carrier
 * thread: with virtual threads, a few waiting writers can pin every carrier while the writer holding the lock
 * cannot run, and the whole server stalls until the busy timeout (seen under load by the bench harness).
 * A Java lock parks a waiting virtual thread instead. Writes outside a transaction are not allowed for this
 * reason: every state change runs in {@code inTransaction}/{@code useTransaction}.
 * <p>
 * The Java lock orders this process's transactions; the dialect's lock ({@link Dialect#lockWriters}), taken first in
 * each transaction, orders them with those of other processes on the same database (PostgreSQL, several instances).
 */
final class SerializedTransactions extends DelegatingTransactionHandler {

    private final ReentrantLock writer = new ReentrantLock(true);
    private final Dialect dialect;

    SerializedTransactions(TransactionHandler delegate, Dialect dialect) {
        super(delegate);
        this.dialect = dialect;
    }

    /** Transactions waiting for the lock: for tests. */
    int queuedWriters() {
        return writer.getQueueLength();
    }

    @Override
    public <R, X extends Exception> R inTransaction(Handle handle, HandleCallback<R, X> callback) throws X {
        writer.lock();
        try {
            return super.inTransaction(handle, locked(callback));
        } finally {
            writer.unlock();
        }
    }

    @Override
    public <R, X extends Exception> R inTransaction(Handle handle, TransactionIsolationLevel level,
            HandleCallback<R, X> callback) throws X {
        writer.lock();
        try {
            return super.inTransaction(handle, level, locked(callback));
        } finally {
            writer.unlock();
        }
    }

    /** {@code callback} after the database's own writer lock, in the transaction. */
    private <R, X extends Exception> HandleCallback<R, X> locked(HandleCallback<R, X> callback) {
        return h -> {
            dialect.lockWriters(h);
            return callback.withHandle(h);
        };
    }
}
