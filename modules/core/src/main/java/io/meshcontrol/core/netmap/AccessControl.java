package io.meshcontrol.core.netmap;

import io.meshcontrol.core.policy.Policy;
import io.meshcontrol.core.policy.PolicyInventory;
import io.meshcontrol.core.state.NetworkSnapshot;
import io.meshcontrol.core.state.Policies;

/**
 * The access rules for the policy in force and the current snapshot, shared by every map stream. Compiling is
 * the expensive part, so it happens only when the policy changes or when the users and nodes change in a way the
 * policy sees (joins, tags, owners, roles, addresses, routes); a snapshot that differs only in endpoints, host
 * information or presence reuses the last compilation, and with it every per-node answer already computed.
 */
public final class AccessControl {

    private record Compiled(Policy policy, long snapshotVersion, long rowsVersion, PolicyInventory inventory,
            AccessRules rules) {

        /** Good for this snapshot: the same, or one that differs only in what the policy never sees (presence). */
        boolean serves(Policy policy, NetworkSnapshot snapshot) {
            return this.policy == policy
                    && (snapshotVersion == snapshot.version() || rowsVersion == snapshot.rowsVersion());
        }
    }

    private final Policies policies;
    private final String serverUrl;
    private final boolean funnelAllowed;
    private final boolean recordingFailuresReported;
    private volatile Compiled compiled;

    public AccessControl(Policies policies) {
        this(policies, "");
    }

    /** @param serverUrl where SSH {@code check} rules send clients */
    public AccessControl(Policies policies, String serverUrl) {
        this(policies, serverUrl, true);
    }

    /**
     * @param funnelAllowed whether nodes the policy gives the {@code funnel} attribute get it ({@code funnel.enabled});
     *                      false takes Funnel's attributes out of every node's capabilities
     */
    public AccessControl(Policies policies, String serverUrl, boolean funnelAllowed) {
        this(policies, serverUrl, funnelAllowed, true);
    }

    /**
     * @param recordingFailuresReported whether SSH actions with recorders name this server's report URL
     *                                  ({@code ssh_recording.notify_failures})
     */
    public AccessControl(Policies policies, String serverUrl, boolean funnelAllowed,
            boolean recordingFailuresReported) {
        this.policies = policies;
        this.serverUrl = serverUrl;
        this.funnelAllowed = funnelAllowed;
        this.recordingFailuresReported = recordingFailuresReported;
    }

    public AccessRules rules(NetworkSnapshot snapshot) {
        Policy policy = policies.policy();
        Compiled current = compiled;
        if (current != null && current.serves(policy, snapshot)) {
            return current.rules();
        }
        synchronized (this) {
            current = compiled;
            if (current != null && current.serves(policy, snapshot)) {
                return current.rules();
            }
            PolicyInventory inventory = AccessRules.inventory(snapshot);
            AccessRules rules = current != null && current.policy() == policy && current.inventory().equals(inventory)
                    ? current.rules() : compile(policy, inventory);
            compiled = new Compiled(policy, snapshot.version(), snapshot.rowsVersion(), inventory, rules);
            return rules;
        }
    }

    private AccessRules compile(Policy policy, PolicyInventory inventory) {
        AccessRules rules = AccessRules.compile(policy, inventory, serverUrl);
        rules = funnelAllowed ? rules : rules.withoutFunnel();
        return recordingFailuresReported ? rules : rules.withoutRecordingFailureReports();
    }
}
