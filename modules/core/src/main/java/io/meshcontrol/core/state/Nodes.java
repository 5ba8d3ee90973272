package io.meshcontrol.core.state;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.address.AddressPool;
import io.meshcontrol.core.address.DnsLabels;
import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.event.MeshEvent;
import io.meshcontrol.core.key.DiscoPublicKey;
import io.meshcontrol.core.key.MachinePublicKey;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.store.AuditStore;
import io.meshcontrol.core.store.NodeStore;
import io.meshcontrol.core.store.SettingsStore;
import io.meshcontrol.core.store.VipServiceStore;
import io.meshcontrol.core.net.IpPrefix;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/**
 * Managing nodes: list, show, rename, expire, tag, approve, delete. Each change is one transaction; the feed hears of
 * the row and the change's event goes out when it commits.
 */
public final class Nodes {

    public static final String WRITE_SCOPE = "devices:core";
    public static final String READ_SCOPE = "devices:core:read";

    private final Jdbi jdbi;
    private final Writer writer;
    private final NodeStore store;
    private final Snapshots feed;
    private final Policies policies;
    private final RouteApprovals approvals;
    private final SettingsStore settings;
    private final java.time.Duration keyLifetime;
    private final AddressPool addresses;
    private final Clock clock;
    private final AuditStore audit = new AuditStore();

    /** @param options its {@code nodeKeyExpiry} is the key lifetime when the tailnet setting names none */
    Nodes(Jdbi jdbi, Writer writer, NodeStore store, Snapshots feed, Policies policies, RouteApprovals approvals,
            SettingsStore settings, NetworkOptions options, AddressPool addresses, Clock clock) {
        this.jdbi = jdbi;
        this.writer = writer;
        this.store = store;
        this.feed = feed;
        this.policies = policies;
        this.approvals = approvals;
        this.settings = settings;
        this.keyLifetime = options.nodeKeyExpiry();
        this.addresses = addresses;
        this.clock = clock;
    }

    /** The nodes the caller may read ({@link #readableBy}). */
    public List<Node> list(Caller caller) {
        Predicate<Node> readable = readableBy(caller);
        return jdbi.withHandle(store::all).stream().filter(readable).toList();
    }

    /** A node the caller may read ({@link #readableBy}); one it may not is as unknown to it as a missing one (404). */
    public Node get(Caller caller, long id) {
        Predicate<Node> readable = readableBy(caller);
        return jdbi.withHandle(h -> store.byId(h, id)).filter(readable).orElseThrow(() -> unknown(id));
    }

    /**
     * Which nodes a caller may read: every node with {@code devices:core:read}; without it, a person acting with
     * their whole role (a console or OIDC session, a key of theirs without explicit scopes), such as a member,
     * reads the nodes they own, and only those: what their own machines show them anyway. Anyone else is refused
     * (403, naming the scope).
     */
    private static Predicate<Node> readableBy(Caller caller) {
        if (caller.may(READ_SCOPE)) {
            return node -> true;
        }
        if (caller.owner() == null || caller.isScoped() || caller.kind() == Caller.Kind.ACCESS_TOKEN) {
            caller.require(READ_SCOPE);
        }
        long owner = caller.owner().id();
        return node -> node.userId() != null && node.userId() == owner;
    }

    public Node rename(Caller caller, long id, String newName) {
        String name = DnsLabels.requireValid(newName);
        return change(caller, id, (h, node) -> {
            if (!name.equals(node.givenName()) && store.byGivenName(h, name).isPresent()) {
                throw MeshException.conflict("a node named \"" + name + "\" already exists");
            }
            return node.withGivenName(name);
        }, (at, node) -> new MeshEvent.NodeChanged(at, node, "renamed"), false);
    }

    /**
     * Expires the node key now: the node must log in again. Its {@code nodeKeyExpired} goes out here, and
     * {@link #announceExpiredKeys} knows it went out.
     */
    public Node expire(Caller caller, long id) {
        Instant now = clock.instant();
        return change(caller, id, (h, node) -> {
            store.markKeyExpiryAnnounced(h, id, now);
            return node.withKeyExpiry(now);
        }, MeshEvent.NodeKeyExpired::new, false);
    }

    /**
     * Publishes {@code nodeKeyExpired} for every key that expired by itself since it was last looked at (housekeeping
     * calls this): once per expiry, also across restarts, since the expiry announced is stored with the node.
     *
     * @return how many were announced
     */
    public int announceExpiredKeys() {
        Instant now = clock.instant();
        return jdbi.inTransaction(h -> {
            List<Node> expired = store.expiredUnannounced(h, now);
            for (Node node : expired) {
                store.markKeyExpiryAnnounced(h, node.id(), node.keyExpiry());
                feed.publishOnCommit(h, new MeshEvent.NodeKeyExpired(now, node));
            }
            return expired.size();
        });
    }

    /**
     * Suspends the node: it keeps its row, addresses and key, but gets no peers and is no one's peer (nor a router
     * or a policy member) until {@link #unsuspend}ed.
     */
    public Node suspend(Caller caller, long id) {
        return change(caller, id, node -> {
            if (node.suspended()) {
                throw MeshException.conflict("node " + node.givenName() + " is already suspended");
            }
            return node.withSuspended(true);
        }, (at, node) -> new MeshEvent.NodeSuspended(at, node, caller.actor()));
    }

    /** Lifts a suspension: the node and its peers see each other again as the policy says. */
    public Node unsuspend(Caller caller, long id) {
        return change(caller, id, node -> {
            if (!node.suspended()) {
                throw MeshException.conflict("node " + node.givenName() + " is not suspended");
            }
            return node.withSuspended(false);
        }, (at, node) -> new MeshEvent.NodeUnsuspended(at, node, caller.actor()));
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

    /**
     * Device approval as a switch (the vendor's {@code authorized}): setting the value a node already has changes
     * nothing, and taking approval back shuts the node out until it is approved again.
     */
    public Node authorize(Caller caller, long id, boolean authorized) {
        caller.require(WRITE_SCOPE);
        Node node = get(caller, id);
        if (node.authorized() == authorized) {
            return node;
        }
        return change(caller, id, n -> n.withAuthorized(authorized), authorized ? MeshEvent.NodeApproved::new
                : (at, n) -> new MeshEvent.NodeChanged(at, n, "approval revoked"));
    }

    /**
     * The vendor's per-node key expiry switch, which reads back as asked. Switching it off clears the node's expiry;
     * switching it back on gives the key lifetime in force from now on (none while keys never expire here); a node whose
     * switch is on keeps the expiry it has.
     */
    public Node setKeyExpiryDisabled(Caller caller, long id, boolean disabled) {
        return change(caller, id, (h, node) -> {
            if (disabled) {
                return node.withKeyExpiryDisabled();
            }
            if (!node.keyExpiryDisabled()) {
                return node;
            }
            java.time.Duration lifetime = settings.read(h).nodeKeyLifetime(keyLifetime);
            return node.withKeyExpiry(lifetime.isZero() ? null : clock.instant().plus(lifetime));
        }, (at, node) -> new MeshEvent.NodeChanged(at, node, disabled ? "key expiry disabled" : "key expiry enabled"),
                false);
    }

    /**
     * Gives the node another IPv4 address (and the IPv6 address that goes with it): one in the network's prefix that
     * no other node or VIP service holds. The node and its peers get the new address with their next map.
     */
    public Node setIpv4(Caller caller, long id, String ipv4) {
        AddressPool.Addresses pair = addresses.claim(ipv4);
        // Checked in the transaction that writes the address, so that no other change can take it in between.
        return change(caller, id, (h, node) -> {
            if (pair.ipv4().equals(node.ipv4())) {
                return node;
            }
            if (VipServiceStore.ipv4Taken(h, pair.ipv4())) {
                throw MeshException.conflict("address " + pair.ipv4() + " is already in use");
            }
            return node.withAddresses(pair.ipv4(), pair.ipv6());
        }, (at, node) -> new MeshEvent.NodeChanged(at, node, "address changed"), false);
    }

    /** Sets the node's tags; a user's node handed tags then belongs to the tags. */
    public Node setTags(Caller caller, long id, List<String> tags) {
        return change(caller, id, node -> {
            List<String> valid = Tags.requireValid(tags);
            TagRules.requireCallerMayApply(policies.policy(), caller, valid);
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
        return jdbi.inTransaction(h -> {
            Node node = store.byId(h, id).orElseThrow(() -> unknown(id));
            Node updated = approvals.autoApprove(h, node.withClientState(discoKey == null ? node.discoKey() : discoKey,
                    endpoints == null ? node.endpoints() : endpoints, hostinfo == null ? node.hostinfo() : hostinfo,
                    advertisedRoutes == null ? node.advertisedRoutes() : advertisedRoutes));
            if (!updated.equals(node)) {
                store.update(h, updated);
                feed.publishOnCommit(h, new MeshEvent.NodeChanged(clock.instant(), updated, "client update"));
            }
            return updated;
        });
    }

    /**
     * Removes ephemeral nodes that have been offline longer than {@code timeout}; returns how many. Looks through the
     * snapshot (no database scan); each removal checks the row again in its transaction, since the node may have
     * come back in the meantime.
     */
    public int reapEphemeral(java.time.Duration timeout) {
        Instant cutoff = clock.instant().minus(timeout);
        List<Node> stale = feed.current().entries().values().stream()
                .filter(entry -> entry.node().ephemeral() && !entry.online() && offlineSince(entry.node()).isBefore(cutoff))
                .map(NetworkSnapshot.NodeEntry::node)
                .toList();
        int removed = 0;
        for (Node node : stale) {
            boolean deleted = jdbi.inTransaction(h -> {
                Node now = store.byId(h, node.id()).orElse(null);
                if (now == null || feed.current().isOnline(now.id()) || !offlineSince(now).isBefore(cutoff)
                        || !store.delete(h, now.id())) {
                    return false;
                }
                feed.publishOnCommit(h, new MeshEvent.NodeDeleted(clock.instant(), now));
                return true;
            });
            if (deleted) {
                removed++;
            }
        }
        return removed;
    }

    /**
     * A node's report that an SSH session into it could not be recorded.
     *
     * @param event {@code rejected}, {@code terminated} or {@code failed}
     * @param srcNodeId the node the session came from
     */
    public record SshRecordingReport(String event, long srcNodeId, String sshUser, String localUser,
            List<MeshEvent.RecordingAttempt> attempts) {
    }

    /**
     * Publishes {@code sshRecordingFailed} for the node with {@code machineKey} (proven by its control connection).
     * Nothing is written: the report is an event only.
     *
     * @return the node that reported it
     * @throws MeshException (not found) when no node has that machine key
     */
    public Node sshRecordingFailed(MachinePublicKey machineKey, SshRecordingReport report) {
        NetworkSnapshot snapshot = feed.current();
        Node node = jdbi.withHandle(h -> store.byMachineKey(h, machineKey))
                .orElseThrow(() -> MeshException.notFound("no node has this machine key"));
        feed.publish(new MeshEvent.SshRecordingFailed(clock.instant(), node, report.event(),
                snapshot.node(report.srcNodeId()).orElse(null), report.srcNodeId(), report.sshUser(),
                report.localUser(), report.attempts()));
        return node;
    }

    private static Instant offlineSince(Node node) {
        return node.lastSeen() == null ? node.createdAt() : node.lastSeen();
    }

    public void delete(Caller caller, long id) {
        writer.write(caller, WRITE_SCOPE, (h, now) -> {
            Node node = store.byId(h, id).orElseThrow(() -> unknown(id));
            store.delete(h, id);
            feed.publishOnCommit(h, new MeshEvent.NodeDeleted(now, node));
            audit.append(h, caller.audited(now, "node.delete", Long.toString(id), AuditDetails.of()
                    .put("name", node.givenName()).put("ipv4", node.ipv4()).map()));
        });
    }

    /** What one bulk request does to each node it names ({@link #bulk}); the wire names are the API's. */
    public enum BulkAction {
        APPROVE("approve"),
        DELETE("delete"),
        EXPIRE("expire"),
        DISABLE_KEY_EXPIRY("disable-key-expiry"),
        ADD_TAGS("add-tags"),
        REMOVE_TAGS("remove-tags");

        private final String wireName;

        BulkAction(String wireName) {
            this.wireName = wireName;
        }

        public String wireName() {
            return wireName;
        }

        /** The action with this wire name; empty for any other text. */
        public static Optional<BulkAction> fromWireName(String name) {
            return Arrays.stream(values()).filter(a -> a.wireName.equals(name)).findFirst();
        }
    }

    /**
     * One action on many nodes in one transaction, all or nothing: when any id is unknown or its change is refused
     * (a tag the caller may not apply, a tagged node left without tags), nothing is written and the refusal names
     * every such id. Each node changed gets its own audit entry and event, as the single-node operation writes them,
     * so the audit log reads the same whichever way a change was made; nodes already as asked (an approved node)
     * are left alone, without an entry.
     *
     * @param tags for {@link BulkAction#ADD_TAGS} and {@link BulkAction#REMOVE_TAGS}: the tags; ignored otherwise
     */
    public BulkOutcome<Long> bulk(Caller caller, BulkAction action, List<Long> ids, List<String> tags) {
        BulkRefusals.requireSize(ids);
        boolean tagging = action == BulkAction.ADD_TAGS || action == BulkAction.REMOVE_TAGS;
        if (!tagging && tags != null) {
            throw MeshException.invalid("tags are for add-tags and remove-tags; " + action.wireName() + " takes none");
        }
        List<String> given = tagging ? requireTags(action, tags) : List.of();
        return writer.change(caller, WRITE_SCOPE, (h, now) -> {
            BulkRefusals refusals = new BulkRefusals("nodes");
            Map<Long, Node> found = new LinkedHashMap<>();
            for (long id : new LinkedHashSet<>(ids)) {
                store.byId(h, id).ifPresentOrElse(node -> found.put(id, node),
                        () -> refusals.add(Long.toString(id), unknown(id)));
            }
            Map<Long, Node> changed = new LinkedHashMap<>();
            List<Long> unchanged = new ArrayList<>();
            for (Node node : found.values()) {
                try {
                    Node after = bulkChange(h, caller, action, node, given, now);
                    if (after.equals(node) && action != BulkAction.DELETE) {
                        unchanged.add(node.id());
                    } else {
                        changed.put(node.id(), after);
                    }
                } catch (MeshException e) {
                    refusals.add(Long.toString(node.id()), e);
                }
            }
            refusals.throwIfAny();
            for (Node after : changed.values()) {
                Node before = found.get(after.id());
                if (action == BulkAction.DELETE) {
                    store.delete(h, before.id());
                    feed.publishOnCommit(h, new MeshEvent.NodeDeleted(now, before));
                    audit.append(h, caller.audited(now, "node.delete", Long.toString(before.id()), AuditDetails.of()
                            .put("name", before.givenName()).put("ipv4", before.ipv4()).put("bulk", "true").map()));
                    continue;
                }
                if (action == BulkAction.EXPIRE) {
                    store.markKeyExpiryAnnounced(h, before.id(), now);
                }
                store.update(h, after);
                feed.publishOnCommit(h, switch (action) {
                    case APPROVE -> new MeshEvent.NodeApproved(now, after);
                    case EXPIRE -> new MeshEvent.NodeKeyExpired(now, after);
                    case DISABLE_KEY_EXPIRY -> new MeshEvent.NodeChanged(now, after, "key expiry disabled");
                    default -> new MeshEvent.NodeChanged(now, after, "tags changed");
                });
                Map<String, String> details = new LinkedHashMap<>(changes(before, after));
                details.put("bulk", "true");
                audit.append(h, caller.audited(now, "node.update", Long.toString(before.id()), details));
            }
            return new BulkOutcome<>(List.copyOf(changed.keySet()), unchanged);
        });
    }

    private static List<String> requireTags(BulkAction action, List<String> tags) {
        if (tags == null || tags.isEmpty()) {
            throw MeshException.invalid(action.wireName() + " needs the field \"tags\" with at least one tag");
        }
        return Tags.requireValid(tags);
    }

    /** The node after {@code action}; throws when it is refused for this node. */
    private Node bulkChange(Handle h, Caller caller, BulkAction action, Node node, List<String> tags, Instant now) {
        return switch (action) {
            case APPROVE -> node.withAuthorized(true);
            case DELETE -> node;
            case EXPIRE -> node.isKeyExpired(now) ? node : node.withKeyExpiry(now);
            case DISABLE_KEY_EXPIRY -> node.keyExpiryDisabled() ? node : node.withKeyExpiryDisabled();
            case ADD_TAGS, REMOVE_TAGS -> {
                LinkedHashSet<String> next = new LinkedHashSet<>(node.tags());
                if (action == BulkAction.ADD_TAGS) {
                    next.addAll(tags);
                } else {
                    next.removeAll(tags);
                }
                List<String> valid = List.copyOf(next);
                if (valid.equals(node.tags())) {
                    yield node;
                }
                TagRules.requireCallerMayApply(policies.policy(), caller, valid);
                if (valid.isEmpty() && node.userId() == null) {
                    throw MeshException.invalid("node " + node.givenName()
                            + " belongs to its tags and has no user; it keeps at least one tag");
                }
                yield approvals.autoApprove(h, node.withTags(valid));
            }
        };
    }

    private Node change(Caller caller, long id, Function<Node, Node> change,
            java.util.function.BiFunction<Instant, Node, MeshEvent> event) {
        return change(caller, id, change, event, false);
    }

    private Node change(Caller caller, long id, Function<Node, Node> change,
            java.util.function.BiFunction<Instant, Node, MeshEvent> event, boolean autoApprove) {
        return change(caller, id, (h, node) -> change.apply(node), event, autoApprove);
    }

    /**
     * @param change the new node from the stored one; it may read more through the transaction's handle
     * @param autoApprove whether the change can let auto-approvers approve routes (new tags or owner)
     */
    private Node change(Caller caller, long id, java.util.function.BiFunction<Handle, Node, Node> change,
            java.util.function.BiFunction<Instant, Node, MeshEvent> event, boolean autoApprove) {
        return writer.change(caller, WRITE_SCOPE, (h, now) -> {
            Node node = store.byId(h, id).orElseThrow(() -> unknown(id));
            Node changed = change.apply(h, node);
            Node updated = autoApprove ? approvals.autoApprove(h, changed) : changed;
            store.update(h, updated);
            feed.publishOnCommit(h, event.apply(now, updated));
            audit.append(h, caller.audited(now, "node.update", Long.toString(id), changes(node, updated)));
            return updated;
        });
    }

    /** What an administrative change did to a node, for its audit entry. */
    static Map<String, String> changes(Node before, Node after) {
        return AuditDetails.of()
                .put("name", before.givenName())
                .change("name", before.givenName(), after.givenName())
                .change("user", before.userId(), after.userId())
                .change("tags", before.tags(), after.tags())
                .change("ipv4", before.ipv4(), after.ipv4())
                .change("ipv6", before.ipv6(), after.ipv6())
                .change("authorized", before.authorized(), after.authorized())
                .change("keyExpiry", before.keyExpiry(), after.keyExpiry())
                .change("approvedRoutes", before.approvedRoutes(), after.approvedRoutes())
                .change("suspended", before.suspended(), after.suspended())
                .change("globalExitPriority", before.globalExitPriority(), after.globalExitPriority())
                .map();
    }

    private static MeshException unknown(long id) {
        return MeshException.notFound("no node " + id);
    }
}
