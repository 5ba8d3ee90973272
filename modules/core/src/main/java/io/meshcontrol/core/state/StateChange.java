package io.meshcontrol.core.state;

import io.meshcontrol.core.model.AuditEntry;
import io.meshcontrol.core.netmap.context.MapContext;
import io.meshcontrol.core.policy.Policy;

/**
 * One change on the feed ({@link Snapshots#subscribe}): what changed, as a descriptor a reader can merge with others,
 * and the snapshot that has it. Readers that need the data read it from that snapshot (nodes, users) or from the
 * change itself (the policy, the map context).
 */
public sealed interface StateChange {

    /**
     * The snapshot with this change in it; for a policy, map context or node attributes change, the snapshot that was
     * current when it took effect.
     */
    NetworkSnapshot snapshot();

    /**
     * A node's row or online state changed, or what peers see of it for another reason (the routes it serves), or it
     * was deleted (then the snapshot no longer holds it).
     */
    record NodeChanged(NetworkSnapshot snapshot, long nodeId) implements StateChange {
    }

    /** A user was created, changed (name, profile, role) or deleted. */
    record UserChanged(NetworkSnapshot snapshot, long userId) implements StateChange {
    }

    /** A new policy is in force ({@link Policies#policy()} returns it from now on). */
    record PolicyChanged(NetworkSnapshot snapshot, Policy policy) implements StateChange {
    }

    /**
     * What every map carries besides nodes changed (DNS, services, apps, the DERP map, the latest client release):
     * {@code context} is the one in force now ({@link MapContextState#current()} returns it from now on).
     */
    record MapContextChanged(NetworkSnapshot snapshot, MapContext context) implements StateChange {
    }

    /**
     * Every node's own attributes changed, not any row: a global exit node was marked or unmarked, which changes the
     * exit node suggested to each node and its traffic steering.
     */
    record NodeAttributesChanged(NetworkSnapshot snapshot) implements StateChange {
    }

    /**
     * An administrative change committed, as its audit entry describes it (what, by whom, on what): for readers that
     * follow every change, not only what maps carry (an event stream, another instance). One per entry, after the
     * change's other effects are on the feed.
     */
    record Recorded(NetworkSnapshot snapshot, AuditEntry entry) implements StateChange {
    }

    /**
     * A webhook delivery ended (delivered, or failed for good) and is in its endpoint's history: for readers that show
     * the history or a failing endpoint (the console, the desktop app), so they need not poll for it.
     */
    record DeliveryFinished(NetworkSnapshot snapshot, String webhookId) implements StateChange {
    }
}
