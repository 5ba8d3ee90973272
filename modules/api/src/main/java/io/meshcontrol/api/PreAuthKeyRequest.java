package io.meshcontrol.api;

import java.util.List;

/**
 * Body of {@code POST /api/v1/preauthkey}: a user or tags (or both: then the nodes belong to the tags).
 *
 * @param expiration Go-style duration such as {@code 24h}; absent for the 90-day default
 */
public record PreAuthKeyRequest(String user, List<String> tags, Boolean reusable, Boolean ephemeral,
        Boolean preauthorized, String description, String expiration) {
}
