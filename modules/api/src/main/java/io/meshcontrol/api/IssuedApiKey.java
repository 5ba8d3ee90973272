package io.meshcontrol.api;

import java.util.List;

/**
 * A key just created or rotated. {@code secret} is shown this once and never again.
 *
 * @param droppedScopes requested scopes the caller could not delegate
 */
public record IssuedApiKey(ApiKeyView apiKey, String secret, List<String> droppedScopes) {
}
