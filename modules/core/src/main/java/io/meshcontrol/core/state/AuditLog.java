package io.meshcontrol.core.state;

import io.meshcontrol.core.model.AuditEntry;
import io.meshcontrol.core.store.AuditStore;
import java.util.List;
import org.jdbi.v3.core.Jdbi;

/** The audit log as read; each state service writes its entries in the transaction of the change they record. */
public final class AuditLog {

    private final Jdbi jdbi;
    private final AuditStore store;

    AuditLog(Jdbi jdbi, AuditStore store) {
        this.jdbi = jdbi;
        this.store = store;
    }

    /**
     * Newest first.
     *
     * @param action only entries of this action, or null for every action
     */
    public List<AuditEntry> recent(String action, int limit) {
        return jdbi.withHandle(h -> store.recent(h, action, limit));
    }
}
