package io.meshcontrol.core.model;

import java.time.Instant;

/**
 * Which audit entries to read, newest first: every condition given must hold (null means any).
 *
 * @param actor exactly this actor
 * @param action exactly this action, or every action under a prefix ending in a dot ({@code apikey.})
 * @param target exactly this target
 * @param since entries at or after this time
 * @param until entries before this time
 * @param before entries with a smaller id (the paging cursor: the last id of the previous page), or 0 for the newest
 * @param limit at most this many
 */
public record AuditFilter(String actor, String action, String target, Instant since, Instant until, long before,
        int limit) {

    /** The most entries one page may hold. */
    public static final int MAX_LIMIT = 1000;

    public AuditFilter {
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("limit must be 1 to " + MAX_LIMIT);
        }
    }

    /** The newest {@code limit} entries of every kind. */
    public static AuditFilter newest(int limit) {
        return new AuditFilter(null, null, null, null, null, 0, limit);
    }

    public AuditFilter withAction(String value) {
        return new AuditFilter(actor, value, target, since, until, before, limit);
    }
}
