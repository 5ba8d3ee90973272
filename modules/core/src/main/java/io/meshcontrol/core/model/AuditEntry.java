package io.meshcontrol.core.model;

import java.time.Instant;
import java.util.Map;

/**
 * One line of the audit log.
 *
 * @param actor who did it, e.g. {@code apikey:k123CNTRL} or {@code local-admin}
 * @param action the spec's action name, e.g. {@code apikey.rotate}
 * @param target what it was done to
 * @param details action-specific facts (old and new prefix, ...)
 */
public record AuditEntry(long id, Instant at, String actor, String action, String target, Map<String, String> details) {

    public AuditEntry {
        details = Map.copyOf(details);
    }
}
