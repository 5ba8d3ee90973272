package io.meshcontrol.core.state;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.address.DnsLabels;
import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.event.EventBus;
import io.meshcontrol.core.event.MeshEvent;
import io.meshcontrol.core.key.DiscoPublicKey;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.store.NodeStore;
import io.meshcontrol.core.wire.IpPrefix;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.function.Function;
import org.jdbi.v3.core.Jdbi;

/** Managing nodes: list, show, rename, expire, tag, approve, delete. Each change is published for peers. */
public final class Nodes {

    public static final String WRITE_SCOPE = "devices:core";
    public static final String READ_SCOPE = "devices:core:read";

    private final Jdbi jdbi;
    private final NodeStore store;
    private final EventBus events;
    private final Policies policies;
    private final RouteApprovals approvals;
    private final Clock clock;

    Nodes(Jdbi jdbi, NodeStore store, EventBus events, Policies policies, RouteApprovals approvals,
            Clock clock) {
        this.jdbi = jdbi;
        this.store = store;
        this.events = events;
        this.policies = policies;
        this.approvals = approvals;
        this.clock = clock;
    }

    public List<Node> list(Caller caller) {
        caller.require(READ_SCOPE);
        return jdbi.withHandle(store::all);
    }

    public Node get(Caller caller, long id) {
        caller.require(READ_SCOPE);
        return jdbi.withHandle(h -> store.byId(h, id)).orElseThrow(() -> unknown(id));
    }

    public Node rename(Caller caller, long id, String newName) {
        String name = DnsLabels.requireValid(newName);
        return change(caller, id, node -> {
            if (!name.equals(node.givenName()) && jdbi.withHandle(h -> store.byGivenName(h, name)).isPresent()) {
                throw MeshException.conflict("a node named \"" + name + "\" already exists");
            }
            return node.withGivenName(name);
        }, (at, node) -> new MeshEvent.NodeChanged(at, node, "renamed"));
    }

    /** Expires the node key now: the node must log in again. */
    public Node expire(Caller caller, long id) {
        Instant now = clock.instant();
        return change(caller, id, node -> node.withKeyExpiry(now), MeshEvent.NodeKeyExpired::new);
    }

    /** Device approval: lets a node that waits for approval into the network. */
    public Node approve(Caller caller, long id) {
        return change(caller, id, node -> {
            if (node.authorized()) {
                throw MeshException.invalid("node " + node.givenName() + " is already approved");
            }
            return node.withAuthorized(true);
        }, MeshEvent.NodeApproved::new);
    }

    /** Sets the node's tags; a user's node handed tags then belongs to the tags. */
    public Node setTags(Caller caller, long id, List<String> tags) {
        List<String> valid = Tags.requireValid(tags);
        TagRules.requireCallerMayApply(policies.policy(), caller, valid);
        return change(caller, id, node -> {
            if (valid.isEmpty() && node.userId() == null) {
                throw MeshException.invalid("node " + node.givenName()
                        + " belongs to its tags and has no user; it keeps at least one tag");
            }
            return node.withTags(valid);
        }, (at, node) -> new MeshEvent.NodeChanged(at, node, "tags changed"), true);
    }

    /**
     * What the client itself reports with its map requests: disco key, endpoints, Hostinfo and the routes that
     * Hostinfo advertises (null: unchanged). Written and published only when something changed, since clients
     * repeat themselves often. Newly advertised routes the auto-approvers allow are approved in the same change.
     */
    public Node updateFromClient(long id, DiscoPublicKey discoKey, List<String> endpoints, String hostinfo,
            List<IpPrefix> advertisedRoutes) {
        Node[] result = new Node[1];
        boolean changed = jdbi.inTransaction(h -> {
            Node node = store.byId(h, id).orElseThrow(() -> unknown(id));
            Node updated = approvals.autoApprove(h, node.withClientState(discoKey == null ? node.discoKey() : discoKey,
                    endpoints == null ? node.endpoints() : endpoints, hostinfo == null ? node.hostinfo() : hostinfo,
                    advertisedRoutes == null ? node.advertisedRoutes() : advertisedRoutes));
            result[0] = updated;
            if (updated.equals(node)) {
                return false;
            }
            store.update(h, updated);
            return true;
        });
        if (changed) {
            events.publish(new MeshEvent.NodeChanged(clock.instant(), result[0], "client update"));
        }
        return result[0];
    }

    /**
     * Removes ephemeral nodes that have been offline longer than {@code timeout}; returns how many. Looks through the
     * snapshot (no database scan); each removal checks the row again in its transaction, since the node may have
     * come back in the meantime.
     */
    public int reapEphemeral(Snapshots snapshots, java.time.Duration timeout) {
        Instant cutoff = clock.instant().minus(timeout);
        List<Node> stale = snapshots.current().entries().values().stream()
                .filter(entry -> entry.node().ephemeral() && !entry.online() && offlineSince(entry.node()).isBefore(cutoff))
                .map(NetworkSnapshot.NodeEntry::node)
                .toList();
        int removed = 0;
        for (Node node : stale) {
            boolean deleted = jdbi.inTransaction(h -> {
                Node now = store.byId(h, node.id()).orElse(null);
                return now != null && !snapshots.current().isOnline(now.id()) && offlineSince(now).isBefore(cutoff)
                        && store.delete(h, now.id());
            });
            if (deleted) {
                removed++;
                events.publish(new MeshEvent.NodeDeleted(clock.instant(), node));
            }
        }
        return removed;
    }

    private static Instant offlineSince(Node node) {
        return node.lastSeen() == null ? node.createdAt() : node.lastSeen();
    }

    public void delete(Caller caller, long id) {
        caller.require(WRITE_SCOPE);
        Node deleted = jdbi.inTransaction(h -> {
            Node node = store.byId(h, id).orElseThrow(() -> unknown(id));
            store.delete(h, id);
            return node;
        });
        events.publish(new MeshEvent.NodeDeleted(clock.instant(), deleted));
    }

    private Node change(Caller caller, long id, Function<Node, Node> change,
            java.util.function.BiFunction<Instant, Node, MeshEvent> event) {
        return change(caller, id, change, event, false);
    }

    /** @param autoApprove whether the change can let auto-approvers approve routes (new tags or owner) */
    private Node change(Caller caller, long id, Function<Node, Node> change,
            java.util.function.BiFunction<Instant, Node, MeshEvent> event, boolean autoApprove) {
        caller.require(WRITE_SCOPE);
        Node changed = jdbi.inTransaction(h -> {
            Node node = store.byId(h, id).orElseThrow(() -> unknown(id));
            Node updated = autoApprove ? approvals.autoApprove(h, change.apply(node)) : change.apply(node);
            store.update(h, updated);
            return updated;
        });
        events.publish(event.apply(clock.instant(), changed));
        return changed;
    }

    private static MeshException unknown(long id) {
        return MeshException.notFound("no node " + id);
    }
}
