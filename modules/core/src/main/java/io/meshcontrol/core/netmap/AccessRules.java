package io.meshcontrol.core.netmap;

import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.policy.CompiledPolicy;
import io.meshcontrol.core.policy.Policy;
import io.meshcontrol.core.policy.PolicyInventory;
import io.meshcontrol.core.policy.PolicyNode;
import io.meshcontrol.core.state.NetworkSnapshot;
import io.meshcontrol.core.state.PolicyInventories;
import io.meshcontrol.core.wire.FilterRule;
import io.meshcontrol.core.wire.RawJson;
import io.meshcontrol.core.wire.SSHAction;
import io.meshcontrol.core.wire.SSHPolicy;
import io.meshcontrol.core.wire.SSHRecorderFailureAction;
import io.meshcontrol.core.wire.SSHRule;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * The policy compiled against one snapshot's users and nodes, asked in terms of stored nodes: whom a node sees,
 * the packet filter and SSH policy it enforces, its own capabilities. Only approved nodes take part.
 */
public final class AccessRules {

    private final CompiledPolicy compiled;
    private final boolean funnelAllowed;
    private final boolean recordingFailuresReported;

    private AccessRules(CompiledPolicy compiled) {
        this(compiled, true, true);
    }

    private AccessRules(CompiledPolicy compiled, boolean funnelAllowed, boolean recordingFailuresReported) {
        this.compiled = compiled;
        this.funnelAllowed = funnelAllowed;
        this.recordingFailuresReported = recordingFailuresReported;
    }

    /** The same rules with Funnel's attributes taken out of every node's capabilities ({@code funnel.enabled: false}). */
    AccessRules withoutFunnel() {
        return new AccessRules(compiled, false, recordingFailuresReported);
    }

    /**
     * The same rules with no recording-failure report URL in SSH actions ({@code ssh_recording.notify_failures:
     * false}): nodes then keep a failed recording to themselves.
     */
    AccessRules withoutRecordingFailureReports() {
        return new AccessRules(compiled, funnelAllowed, false);
    }

    /** The same rules for a snapshot where {@code appended} machines joined ({@link CompiledPolicy#withAppended}). */
    AccessRules withAppended(List<PolicyNode> appended) {
        return new AccessRules(compiled.withAppended(appended), funnelAllowed, recordingFailuresReported);
    }

    public static AccessRules compile(Policy policy, NetworkSnapshot snapshot) {
        return compile(policy, snapshot, "");
    }

    /** @param serverUrl where SSH {@code check} rules send clients */
    public static AccessRules compile(Policy policy, NetworkSnapshot snapshot, String serverUrl) {
        return compile(policy, PolicyInventories.of(snapshot), serverUrl);
    }

    /** The same rules for another snapshot whose users and nodes look the same to the policy. */
    static AccessRules compile(Policy policy, PolicyInventory inventory, String serverUrl) {
        return new AccessRules(CompiledPolicy.compile(policy, inventory, serverUrl));
    }

    public CompiledPolicy compiled() {
        return compiled;
    }

    /** Whether {@code a} and {@code b} are peers: either may reach the other. */
    public boolean sees(Node a, Node b) {
        return compiled.sees(a.id(), b.id());
    }

    /** Whether {@code node} sees the same nodes under these rules as under {@code earlier} (see CompiledPolicy). */
    public boolean samePeers(Node node, AccessRules earlier) {
        return compiled.samePeers(node.id(), earlier.compiled);
    }

    /** The nodes that see any of {@code nodeIds}, or null when they are more than {@code limit} (see CompiledPolicy). */
    public long[] seenBy(Collection<Long> nodeIds, int limit) {
        return compiled.seenBy(nodeIds, limit);
    }

    /** How many nodes {@code node} sees. */
    public int peerCount(Node node) {
        return compiled.peerCount(node.id());
    }

    /** The ids of the nodes {@code node} sees (none when it is not approved), in no particular order. */
    public List<Long> peerIds(Node node) {
        return compiled.peers(node.id());
    }

    /** The packet filter {@code node} enforces: who may reach it, on which ports. */
    public List<FilterRule> packetFilter(Node node) {
        return compiled.packetFilter(node.id());
    }

    /** The node's Tailscale SSH rules (an empty list when none applies). */
    public SSHPolicy sshPolicy(Node node) {
        SSHPolicy policy = compiled.sshPolicy(node.id());
        return recordingFailuresReported ? policy : withoutReportUrl(policy);
    }

    private static SSHPolicy withoutReportUrl(SSHPolicy policy) {
        return new SSHPolicy(policy.rules().stream().map(rule -> {
            SSHRecorderFailureAction failure = rule.action().onRecordingFailure();
            if (failure == null || failure.notifyUrl().isEmpty()) {
                return rule;
            }
            boolean nothingElse = failure.rejectSessionWithMessage().isEmpty()
                    && failure.terminateSessionWithMessage().isEmpty();
            SSHAction action = rule.action().withOnRecordingFailure(nothingElse ? null : new SSHRecorderFailureAction(
                    failure.rejectSessionWithMessage(), failure.terminateSessionWithMessage(), ""));
            return new SSHRule(rule.ruleExpires(), rule.principals(), rule.sshUsers(), action, rule.acceptEnv());
        }).toList());
    }

    /**
     * Which of {@code peer}'s approved routes {@code viewer} may use (for the peer's {@code AllowedIPs} in the
     * viewer's map); which router is primary for a route is decided elsewhere.
     */
    public List<String> peerRoutes(Node viewer, Node peer) {
        return compiled.peerRoutes(viewer.id(), peer.id());
    }

    /** The node's own capabilities, for its self {@code CapMap}. */
    public Map<String, List<RawJson>> capMap(Node node) {
        Map<String, List<RawJson>> caps = compiled.capMap(node.id());
        if (funnelAllowed || caps.keySet().stream().noneMatch(CompiledPolicy::isFunnelCapability)) {
            return caps;
        }
        Map<String, List<RawJson>> kept = new java.util.TreeMap<>(caps);
        kept.keySet().removeIf(CompiledPolicy::isFunnelCapability);
        return java.util.Collections.unmodifiableMap(kept);
    }
}
