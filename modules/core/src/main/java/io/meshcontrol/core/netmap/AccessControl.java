package io.meshcontrol.core.netmap;

import io.meshcontrol.core.policy.Policy;
import io.meshcontrol.core.state.NetworkSnapshot;
import io.meshcontrol.core.state.Policies;

/**
 * The compiled access rules for the policy in force and the current snapshot, compiled once per change and
 * shared by every map stream that asks during the same batch.
 */
public final class AccessControl {

    private record Compiled(Policy policy, long snapshotVersion, AccessRules rules) {
    }

    private final Policies policies;
    private volatile Compiled compiled;

    public AccessControl(Policies policies) {
        this.policies = policies;
    }

    public AccessRules rules(NetworkSnapshot snapshot) {
        Policy policy = policies.policy();
        Compiled current = compiled;
        if (current != null && current.policy() == policy && current.snapshotVersion() == snapshot.version()) {
            return current.rules();
        }
        AccessRules rules = AccessRules.compile(policy, snapshot);
        compiled = new Compiled(policy, snapshot.version(), rules);
        return rules;
    }
}
