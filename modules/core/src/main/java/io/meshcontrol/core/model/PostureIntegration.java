package io.meshcontrol.core.model;

import java.time.Instant;

/**
 * A device posture integration: a third-party device management or security service the network may consult about
 * its machines, one per provider. The client secret is stored to call the provider and never shown again.
 *
 * @param tenantId for {@code intune} only
 * @param updated when its configuration last changed
 */
public record PostureIntegration(String id, String provider, String cloudId, String clientId, String tenantId,
        String clientSecret, Instant updated) {
}
