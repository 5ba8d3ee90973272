package io.meshcontrol.api;

/**
 * {@code POST /api/v1/policy/preview}: what a machine may reach under a policy.
 *
 * @param node the machine's node id
 * @param policy a policy text not saved (HuJSON); absent for the policy in force
 */
public record PolicyPreviewRequest(String node, String policy) {
}
