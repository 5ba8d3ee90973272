package io.meshcontrol.api;

/**
 * {@code POST /api/v1/posture-integration} (provider and clientSecret required) and {@code PATCH
 * /api/v1/posture-integration/{id}} (the provider is fixed; a field left out or empty keeps its value).
 *
 * @param provider {@code falcon}, {@code sentinelone}, {@code intune}, {@code jamfpro}, {@code kandji} or
 *     {@code kolide}
 * @param tenantId for {@code intune} only
 * @param clientSecret write-only
 */
public record PostureIntegrationRequest(String provider, String cloudId, String clientId, String tenantId,
        String clientSecret) {
}
