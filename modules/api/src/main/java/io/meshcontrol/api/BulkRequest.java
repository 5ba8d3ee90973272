package io.meshcontrol.api;

import java.util.List;

/**
 * {@code POST /api/v1/node/bulk}, {@code /api/v1/apikey/bulk} and {@code /api/v1/preauthkey/bulk}: one action on many
 * items, all or nothing.
 *
 * @param action what to do: for nodes {@code approve}, {@code delete}, {@code expire}, {@code disable-key-expiry},
 *     {@code add-tags}, {@code remove-tags}; for API keys {@code expire}; for pre-auth keys {@code revoke}
 * @param ids the items: node ids, API key prefixes or pre-auth key ids
 * @param tags the tags to add or remove ({@code add-tags}, {@code remove-tags} only)
 */
public record BulkRequest(String action, List<String> ids, List<String> tags) {
}
