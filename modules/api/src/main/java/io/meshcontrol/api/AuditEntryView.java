package io.meshcontrol.api;

import java.time.Instant;
import java.util.Map;

/**
 * One entry of the audit log.
 *
 * @param id the entry's place in the log (ascending as written)
 * @param actor who did it: {@code local-admin}, {@code apikey:<id>}, {@code oauth:<client>}, {@code user:<name>}, ...
 * @param source the address the request came from; empty when the change did not come over the network
 * @param action what was done, e.g. {@code apikey.rotate}
 * @param target the id or name of what it was done to
 * @param details the action's facts; a change of a field shows as {@code old<Field>} and {@code new<Field>}
 */
public record AuditEntryView(long id, Instant time, String actor, String source, String action, String target,
        Map<String, String> details) {
}
