package io.meshcontrol.api;

import java.util.List;

/**
 * Body of {@code POST /api/v1/node/{id}/routes}: the complete new set of approved routes (an empty list clears
 * them). Either exit route approves both.
 */
public record RoutesRequest(List<String> routes) {
}
