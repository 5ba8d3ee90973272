package io.meshcontrol.api;

import java.util.List;

/**
 * Body of {@code POST /api/v1/apikey} and {@code POST /api/v1/apikey/{prefix}/rotate} (only
 * {@code expiration} applies there).
 *
 * @param user owner name, or null for an all-access key
 * @param expiration Go-style duration such as {@code 720h}; null for the 90-day default (or, on rotate,
 *     to keep the expiry)
 */
public record ApiKeyRequest(String user, List<String> scopes, String description, String expiration) {

    public static ApiKeyRequest rotate(String expiration) {
        return new ApiKeyRequest(null, null, null, expiration);
    }
}
