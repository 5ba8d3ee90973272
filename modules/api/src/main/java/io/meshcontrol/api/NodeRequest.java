package io.meshcontrol.api;

import java.util.List;

/** Body of {@code POST /api/v1/node/{id}/rename} ({@code name}) and {@code .../tags} ({@code tags}). */
public record NodeRequest(String name, List<String> tags) {
}
