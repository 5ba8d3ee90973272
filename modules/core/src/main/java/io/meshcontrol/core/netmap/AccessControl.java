package io.meshcontrol.core.netmap;

import io.meshcontrol.core.location.GeoDatabase;
import io.meshcontrol.core.policy.Policy;
import io.meshcontrol.core.policy.PolicyInventory;
import io.meshcontrol.core.state.NetworkSnapshot;
import io.meshcontrol.core.state.Policies;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The access rules for the policy in force and the current snapshot, shared by every map stream. Compiling is
 * the expensive part, so it happens only when the policy changes or when the users and nodes change in a way the
 * policy sees (joins, tags, owners, roles, addresses, routes); a snapshot that differs only in endpoints, host
 * information or presence reuses the last compilation, and with it every per-node answer already computed.
 */
public final class AccessControl {

    private record Compiled(Policy policy, long snapshotVersion, long rowsVersion, TrackedInventory inventory,
            AccessRules rules) {

        /** Good for this snapshot: the same, or one that differs only in what the policy never sees (presence). */
        boolean serves(Policy policy, NetworkSnapshot snapshot, GeoDatabase locations) {
            return this.policy == policy && inventory.locations() == locations
                    && (snapshotVersion == snapshot.version() || rowsVersion == snapshot.rowsVersion());
        }
    }

    /**
     * Compilations kept, newest first. Streams work through the change feed at their own pace, so at any moment they
     * ask for the rules of several recent snapshots; keeping only the newest made a stream one snapshot behind compile
     * its snapshot again, and the next stream the newest again, over and over while nodes joined (a compilation is
     * O(N): at N = 10,000 that thrashing took most of the server's CPU).
     */
    static final int KEPT = 8;

    private final Policies policies;
    private final String serverUrl;
    private final boolean funnelAllowed;
    private final boolean recordingFailuresReported;
    private volatile List<Compiled> compiled = List.of();
    /** Compilations from scratch (not counting joins, which extend one), for tests. */
    private int compilations;

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

    /** The rules' answer for an SSH check ({@link io.meshcontrol.core.state.SshChecks.CheckRules}). */
    public Optional<Duration> sshCheckPeriod(NetworkSnapshot snapshot, long srcId, long dstId, String localUser) {
        return rules(snapshot).compiled().sshCheckPeriod(srcId, dstId, localUser);
    }

    public AccessRules rules(NetworkSnapshot snapshot) {
        Policy policy = policies.policy();
        // Posture facts (Hostinfo, location) cost a parse and a lookup per changed row: only for a policy with postures.
        GeoDatabase locations = policy.postures().isEmpty() ? null : policies.locations().current();
        AccessRules kept = kept(compiled, policy, snapshot, locations);
        if (kept != null) {
            return kept;
        }
        synchronized (this) {
            List<Compiled> all = compiled;
            kept = kept(all, policy, snapshot, locations);
            if (kept != null) {
                return kept;
            }
            Compiled base = base(all, policy, snapshot);
            TrackedInventory inventory;
            AccessRules rules;
            if (base == null) {
                inventory = TrackedInventory.of(snapshot, locations);
                rules = compiledAlready(all, policy, inventory.inventory());
            } else {
                TrackedInventory.Step step = base.inventory().next(snapshot, locations);
                inventory = step.next();
                rules = switch (step.change()) {
                    case NONE -> base.rules();
                    case APPENDED -> base.rules().withAppended(step.appended());
                    case OTHER -> compiledAlready(all, policy, inventory.inventory());
                };
            }
            rules = rules != null ? rules : compile(policy, inventory.inventory());
            List<Compiled> next = new ArrayList<>(KEPT);
            next.add(new Compiled(policy, snapshot.version(), snapshot.rowsVersion(), inventory, rules));
            all.stream().filter(c -> c.policy() == policy).limit(KEPT - 1).forEach(next::add);
            compiled = List.copyOf(next);
            return rules;
        }
    }

    private static AccessRules kept(List<Compiled> all, Policy policy, NetworkSnapshot snapshot,
            GeoDatabase locations) {
        for (Compiled c : all) {
            if (c.serves(policy, snapshot, locations)) {
                return c.rules();
            }
        }
        return null;
    }

    /**
     * The compilation to compare a snapshot with: the newest one of an earlier snapshot (the feed's snapshots form one
     * line, so it is the nearest ancestor), or null when every one kept is of a later snapshot.
     */
    private static Compiled base(List<Compiled> all, Policy policy, NetworkSnapshot snapshot) {
        Compiled base = null;
        for (Compiled c : all) {
            if (c.policy() == policy && c.snapshotVersion() < snapshot.version()
                    && (base == null || c.snapshotVersion() > base.snapshotVersion())) {
                base = c;
            }
        }
        return base;
    }

    /** A kept compilation for the same policy and users and machines (a change undone meanwhile), or null. */
    private static AccessRules compiledAlready(List<Compiled> all, Policy policy, PolicyInventory inventory) {
        for (Compiled c : all) {
            if (c.policy() == policy && c.inventory().inventory().equals(inventory)) {
                return c.rules();
            }
        }
        return null;
    }

    int compilations() {
        synchronized (this) {
            return compilations;
        }
    }

    private AccessRules compile(Policy policy, PolicyInventory inventory) {
        compilations++;
        AccessRules rules = AccessRules.compile(policy, inventory, serverUrl);
        rules = funnelAllowed ? rules : rules.withoutFunnel();
        return recordingFailuresReported ? rules : rules.withoutRecordingFailureReports();
    }
}
