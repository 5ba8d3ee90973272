package io.meshcontrol.api;

import java.util.List;

/**
 * The answer to a bulk action that was carried out.
 *
 * @param action the action
 * @param changed the items it changed (each with an audit entry)
 * @param unchanged the items that were already as asked (an approved node, an expired key): nothing was written for them
 */
public record BulkResult(String action, List<String> changed, List<String> unchanged) {
}
