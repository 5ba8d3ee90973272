package io.meshcontrol.api;

import java.util.List;

/** {@code GET /api/v1/posture-integration}. */
public record PostureIntegrationList(List<PostureIntegrationView> integrations) {
}
