package io.meshcontrol.server.live;

import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.state.NetworkSnapshot;
import io.meshcontrol.core.state.Nodes;
import io.meshcontrol.core.state.Policies;
import io.meshcontrol.core.state.StateChange;
import io.meshcontrol.core.state.Users;
import io.meshcontrol.core.state.Webhooks;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The changes one event stream has not sent yet, collected from the change feed. The feed's listener only takes note
 * (ids into sets, under this object's lock); the stream's own thread waits here and takes a {@link ChangeDigest} of
 * what the caller may see. A burst of changes (a thousand machines reconnecting) is one digest, not a thousand.
 */
final class ChangesSeen implements Consumer<StateChange> {

    private final Caller caller;
    private final Set<Long> nodes = new LinkedHashSet<>();
    private final Set<Long> users = new LinkedHashSet<>();
    private final Set<String> areas = new LinkedHashSet<>();
    private boolean policy;
    private boolean context;
    private NetworkSnapshot snapshot;

    ChangesSeen(Caller caller, NetworkSnapshot snapshot) {
        this.caller = caller;
        this.snapshot = snapshot;
    }

    /** The feed's listener: notes the change and wakes the stream; never blocks. */
    @Override
    public synchronized void accept(StateChange change) {
        boolean visible = switch (change) {
            case StateChange.NodeChanged node -> mayRead(change.snapshot(), node.nodeId()) && nodes.add(node.nodeId());
            case StateChange.UserChanged user -> caller.may(Users.READ_SCOPE) && users.add(user.userId());
            case StateChange.PolicyChanged ignored -> {
                policy |= caller.may(Policies.READ_SCOPE);
                yield policy;
            }
            case StateChange.MapContextChanged ignored -> context = true;
            // What each machine is suggested follows a global exit mark, whose own node change is on the feed.
            case StateChange.NodeAttributesChanged ignored -> false;
            case StateChange.Recorded recorded -> areas.add(area(recorded.entry().action()));
            // Under the area of the endpoint's own changes: a page showing webhooks reads their history again.
            case StateChange.DeliveryFinished delivery -> caller.may(Webhooks.READ_SCOPE) && areas.add("webhook");
        };
        snapshot = change.snapshot();
        if (visible) {
            notifyAll();
        }
    }

    /**
     * Waits up to {@code timeoutMillis} for a change, then {@code settleMillis} more for the rest of its burst, and
     * takes what was collected.
     *
     * @return the digest, empty when nothing arrived in time
     */
    synchronized ChangeDigest await(long timeoutMillis, long settleMillis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        while (isEmpty()) {
            long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            if (left <= 0) {
                return take();
            }
            wait(left);
        }
        long settled = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(settleMillis);
        for (long left = settleMillis; left > 0; left = TimeUnit.NANOSECONDS.toMillis(settled - System.nanoTime())) {
            wait(left); // only the deadline ends this: later changes join the digest
        }
        return take();
    }

    private boolean isEmpty() {
        return nodes.isEmpty() && users.isEmpty() && !policy && !context && areas.isEmpty();
    }

    private ChangeDigest take() {
        ChangeDigest digest = new ChangeDigest(nodes.stream().map(String::valueOf).toList(),
                users.stream().map(String::valueOf).toList(), policy, context, new ArrayList<>(areas));
        nodes.clear();
        users.clear();
        areas.clear();
        policy = false;
        context = false;
        return digest;
    }

    /**
     * Every machine for a reader of machines; for a person without that scope, their own machines, as the API
     * shows them (a machine that is gone is known to have been theirs from the snapshot before it went).
     */
    private boolean mayRead(NetworkSnapshot after, long nodeId) {
        if (caller.may(Nodes.READ_SCOPE)) {
            return true;
        }
        if (caller.owner() == null || caller.isScoped()) {
            return false;
        }
        Long owner = after.node(nodeId).or(() -> snapshot.node(nodeId)).map(node -> node.userId()).orElse(null);
        return owner != null && owner == caller.owner().id();
    }

    /** {@code webhook.create} -> {@code webhook}: the area, not what was done to what. */
    static String area(String action) {
        int dot = action.indexOf('.');
        return dot < 0 ? action : action.substring(0, dot);
    }
}
