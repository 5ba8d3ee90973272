package io.meshcontrol.api;

import java.util.List;

/** {@code GET /api/v1/apps}. */
public record AppList(List<AppView> apps) {
}
