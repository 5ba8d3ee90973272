package io.meshcontrol.api;

import java.util.List;

/** {@code GET /api/v1/service}. */
public record ServiceList(List<ServiceView> services) {
}
