package io.meshcontrol.api;

/**
 * The network's runtime settings: {@code GET /api/v1/settings}, and the body of {@code PATCH} (absent fields
 * keep their value).
 *
 * @param devicesKeyDurationDays node key lifetime in days; 0 means {@code node.expiry} from the configuration
 */
public record SettingsView(Boolean devicesApprovalOn, Boolean usersApprovalOn, Integer devicesKeyDurationDays) {
}
