package io.meshcontrol.api;

import java.util.List;

/**
 * {@code POST /api/v1/derp/refresh}: the map sources were fetched and read again.
 *
 * @param problems one line per source that failed; each keeps its previous map
 */
public record DerpRefreshResult(List<String> problems) {
}
