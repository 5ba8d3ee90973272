package io.meshcontrol.core.state;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.address.DnsLabels;
import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.event.EventBus;
import io.meshcontrol.core.event.MeshEvent;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.store.NodeStore;
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
    private final Clock clock;

    public Nodes(Jdbi jdbi, NodeStore store, EventBus events, Clock clock) {
        this.jdbi = jdbi;
        this.store = store;
        this.events = events;
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
        return change(caller, id, node -> {
            if (valid.isEmpty() && node.userId() == null) {
                throw MeshException.invalid("node " + node.givenName()
                        + " belongs to its tags and has no user; it keeps at least one tag");
            }
            return node.withTags(valid);
        }, (at, node) -> new MeshEvent.NodeChanged(at, node, "tags changed"));
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
        caller.require(WRITE_SCOPE);
        Node changed = jdbi.inTransaction(h -> {
            Node node = store.byId(h, id).orElseThrow(() -> unknown(id));
            Node updated = change.apply(node);
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
