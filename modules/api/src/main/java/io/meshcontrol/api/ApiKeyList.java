package io.meshcontrol.api;

import java.util.List;

/** {@code GET /api/v1/apikey}. */
public record ApiKeyList(List<ApiKeyView> apiKeys) {
}
