package io.meshcontrol.core.state;

import java.util.List;

/**
 * What a bulk change did, item by item, in the order asked.
 *
 * @param changed the items it changed, each with its own audit entry
 * @param unchanged the items already as asked (an approved node, a revoked key): nothing was written for them
 */
public record BulkOutcome<T>(List<T> changed, List<T> unchanged) {

    public BulkOutcome {
        changed = List.copyOf(changed);
        unchanged = List.copyOf(unchanged);
    }
}
