package io.meshcontrol.api;

/**
 * Body of {@code POST /api/v1/access-request}: join a policy group for a while (docs/access-requests.md).
 *
 * @param user the user's name; absent for the credential's own user (naming another needs {@code policy_file})
 * @param group a group the policy defines, {@code group:<name>}
 * @param reason why, for the approvers
 * @param duration how long the membership lasts once approved, in Go syntax ({@code 30m}, {@code 8h}), 1m to 720h
 */
public record AccessRequestRequest(String user, String group, String reason, String duration) {
}
