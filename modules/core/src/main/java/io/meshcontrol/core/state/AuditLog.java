package io.meshcontrol.core.state;

import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.model.AuditEntry;
import io.meshcontrol.core.model.AuditFilter;
import io.meshcontrol.core.store.AuditStore;
import java.util.List;
import org.jdbi.v3.core.Jdbi;

/** The audit log as read; each state service writes its entries in the transaction of the change they record. */
public final class AuditLog {

    /** The vendor's scope for reading the audit log ("configuration" logs); every admin role and auditors hold it. */
    public static final String READ_SCOPE = "logs:configuration:read";

    private final Jdbi jdbi;
    private final AuditStore store;

    AuditLog(Jdbi jdbi, AuditStore store) {
        this.jdbi = jdbi;
        this.store = store;
    }

    /** The entries {@code filter} selects, newest first. */
    public List<AuditEntry> find(Caller caller, AuditFilter filter) {
        caller.require(READ_SCOPE);
        return jdbi.withHandle(h -> store.find(h, filter));
    }

    /**
     * The newest entries, for the server's own use and tests (no caller to check).
     *
     * @param action only entries of this action, or null for every action
     */
    public List<AuditEntry> recent(String action, int limit) {
        return jdbi.withHandle(h -> store.find(h, AuditFilter.newest(limit).withAction(action)));
    }
}
