package io.meshcontrol.api;

import java.time.Instant;

/** A device posture integration, without its client secret. */
public record PostureIntegrationView(String id, String provider, String cloudId, String clientId, String tenantId,
        Instant updatedAt) {
}
