package io.meshcontrol.api;

/**
 * {@code POST /api/v1/policy/preview}: what a machine may reach under a policy.
 *
 * @param node the machine's node id
 * @param policy a policy text not saved (HuJSON); absent for the policy in force
 * @param country where to suppose the machine is, for {@code ip:country} posture conditions (ISO 3166-1 alpha-2);
 *     absent for where the location database places it
 * @param city with {@code country}, for {@code ip:city}; absent for none
 */
public record PolicyPreviewRequest(String node, String policy, String country, String city) {

    public PolicyPreviewRequest(String node, String policy) {
        this(node, policy, null, null);
    }
}
