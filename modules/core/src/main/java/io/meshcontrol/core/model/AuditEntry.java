package io.meshcontrol.core.model;

import java.time.Instant;
import java.util.Map;

/**
 * One line of the audit log: who did what to which thing, when and from where.
 *
 * @param id its place in the log, ascending in the order entries were written (0 before it is written)
 * @param actor who did it, e.g. {@code apikey:k123CNTRL} or {@code local-admin}
 * @param source the address the request came from, empty when the change did not come over the network
 * @param action the action's name, e.g. {@code apikey.rotate}
 * @param target what it was done to
 * @param details action-specific facts (old and new prefix, old and new values, ...)
 */
public record AuditEntry(long id, Instant at, String actor, String source, String action, String target,
        Map<String, String> details) {

    public AuditEntry {
        source = source == null ? "" : source;
        details = Map.copyOf(details);
    }

    /** The same entry with the id the log gave it. */
    public AuditEntry withId(long newId) {
        return new AuditEntry(newId, at, actor, source, action, target, details);
    }
}
