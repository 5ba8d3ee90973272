package io.meshcontrol.core.store;

import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.model.User;

/**
 * Told about every node and user row a transaction wrote, once it has committed: still inside the serialized write
 * transaction (Jdbi runs after-commit callbacks before the transaction handler returns), so calls come in commit
 * order, and never for a transaction that rolled back. Must not block or write.
 */
public interface CommitListener {

    CommitListener NOBODY = new CommitListener() {
        @Override
        public void nodeWritten(Node node) {
        }

        @Override
        public void nodeLastSeenWritten(Node node) {
        }

        @Override
        public void nodeDeleted(long nodeId) {
        }

        @Override
        public void userWritten(User user) {
        }

        @Override
        public void userDeleted(long userId) {
        }
    };

    void nodeWritten(Node node);

    /** A write that changed only the node row's last-seen time. */
    void nodeLastSeenWritten(Node node);

    void nodeDeleted(long nodeId);

    void userWritten(User user);

    void userDeleted(long userId);

    /** Outside a transaction an after-commit callback would never run, and the listener would miss the write. */
    static void requireTransaction(org.jdbi.v3.core.Handle handle) {
        if (!handle.isInTransaction()) {
            throw new IllegalStateException("rows are written inside a transaction");
        }
    }
}
