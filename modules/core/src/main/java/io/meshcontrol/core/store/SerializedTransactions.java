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
 */
final class SerializedTransactions extends DelegatingTransactionHandler {

    private final ReentrantLock writer = new ReentrantLock(true);

    SerializedTransactions(TransactionHandler delegate) {
        super(delegate);
    }

    /** Transactions waiting for the lock: for tests. */
    int queuedWriters() {
        return writer.getQueueLength();
    }

    @Override
    public <R, X extends Exception> R inTransaction(Handle handle, HandleCallback<R, X> callback) throws X {
        writer.lock();
        try {
            return super.inTransaction(handle, callback);
        } finally {
            writer.unlock();
        }
    }

    @Override
    public <R, X extends Exception> R inTransaction(Handle handle, TransactionIsolationLevel level,
            HandleCallback<R, X> callback) throws X {
        writer.lock();
        try {
            return super.inTransaction(handle, level, callback);
        } finally {
            writer.unlock();
        }
    }
}
