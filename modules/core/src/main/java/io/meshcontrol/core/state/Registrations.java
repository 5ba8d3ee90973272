package io.meshcontrol.core.state;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.RandomText;
import io.meshcontrol.core.address.AddressPool;
import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.address.DnsLabels;
import io.meshcontrol.core.event.MeshEvent;
import io.meshcontrol.core.key.MachinePublicKey;
import io.meshcontrol.core.key.NodePublicKey;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.model.PreAuthKey;
import io.meshcontrol.core.model.TailnetSettings;
import io.meshcontrol.core.model.User;
import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.store.AuditStore;
import io.meshcontrol.core.store.NodeStore;
import io.meshcontrol.core.store.SettingsStore;
import io.meshcontrol.core.store.UserStore;
import io.meshcontrol.core.store.VipServiceStore;
import io.meshcontrol.core.net.IpPrefix;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/**
 * How a machine becomes (or stays) a node: registration keeps a machine's identity (id, addresses, name) when
 * it registers again, under a new node key too. A node key changes only by a registration (a pre-auth key or a
 * completed login), never on the client's word alone.
 */
public final class Registrations {

    /**
     * What a machine asks for.
     *
     * @param hostname from its Hostinfo
     * @param hostinfo its Hostinfo JSON, stored as sent
     */
    public record Request(MachinePublicKey machineKey, NodePublicKey nodeKey, String hostname, String hostinfo,
            List<String> requestTags) {

        public Request {
            requestTags = List.copyOf(requestTags);
        }

        /** A machine that asks for no tags. */
        public Request(MachinePublicKey machineKey, NodePublicKey nodeKey, String hostname, String hostinfo) {
            this(machineKey, nodeKey, hostname, hostinfo, List.of());
        }
    }

    /**
     * How long the key of a node registered by an interactive login lives, as the file's settings ask: the
     * network's default ({@code node.expiry}), a fixed lifetime ({@code oidc.expiry}) or an instant (the ID token's
     * expiry, {@code oidc.use_expiry_from_token}).
     */
    public sealed interface KeyLife {
        /** {@code node.expiry}, or the tailnet key duration when set. */
        record NetworkDefault() implements KeyLife {
        }

        /** A lifetime from the file (zero: never expires); the tailnet key duration wins when set. */
        record Lifetime(Duration duration) implements KeyLife {
        }

        /** Expires at this instant, whatever the other settings say. */
        record Until(Instant at) implements KeyLife {
        }
    }

    /**
     * A node after registration, with its owner (null for a tagged node).
     *
     * @param heldByDeviceApproval the node waits for an administrator's {@code svc nodes approve} (device approval),
     *     whether or not its user also waits for users approval
     */
    public record Registered(Node node, User user, boolean created, boolean heldByDeviceApproval) {
    }

    private final Jdbi jdbi;
    private final Writer writer;
    private final NodeStore nodes;
    private final UserStore users;
    private final SettingsStore settings;
    private final PreAuthKeys preAuthKeys;
    private final Policies policies;
    private final RouteApprovals approvals;
    private final AddressPool addresses;
    private final NetworkOptions options;
    private final Snapshots feed;
    private final Clock clock;
    private final AuditStore audit = new AuditStore();

    Registrations(Jdbi jdbi, Writer writer, NodeStore nodes, UserStore users, SettingsStore settings,
            PreAuthKeys preAuthKeys, Policies policies, RouteApprovals approvals, NetworkOptions options, AddressPool addresses,
            Snapshots feed, Clock clock) {
        this.policies = policies;
        this.approvals = approvals;
        this.jdbi = jdbi;
        this.writer = writer;
        this.nodes = nodes;
        this.users = users;
        this.settings = settings;
        this.preAuthKeys = preAuthKeys;
        this.addresses = addresses;
        this.options = options;
        this.feed = feed;
        this.clock = clock;
    }

    /** Registers with a pre-auth key; refused (UNAUTHENTICATED, naming why) when the key cannot be used. */
    public Registered withAuthKey(Request request, String authKey) {
        Instant now = clock.instant();
        return jdbi.inTransaction(h -> {
            PreAuthKey key = preAuthKeys.requireUsable(h, authKey, now);
            User keyUser = key.tags().isEmpty() && key.userId() != null ? users.byId(h, key.userId()).orElseThrow() : null;
            List<String> tags = TagRules.forRegistration(policies.policy(), keyUser, key.tags(), request.requestTags());
            Registered result = upsert(h, request, new Grant(tags.isEmpty() ? keyUser : null, tags, key.ephemeral(),
                    key.preauthorized(), key.id(), Node.RegisterMethod.AUTH_KEY, new KeyLife.NetworkDefault()), now);
            preAuthKeys.recordUse(h, key, now);
            publishOnCommit(h, result, now);
            return result;
        });
    }

    /**
     * Registers a machine for {@code userName} with no client behind it: the development endpoint
     * {@code POST /api/v1/debug/node} ({@code debug.node_api_enabled}), for trying maps, policies and the console
     * with made-up machines.
     */
    public Registered forUserWithoutClient(Caller caller, Request request, String userName) {
        caller.require(Nodes.WRITE_SCOPE);
        User user = jdbi.withHandle(h -> users.byName(h, userName))
                .orElseThrow(() -> MeshException.notFound("no user \"" + userName + "\""));
        return forUser(request, user, false, new KeyLife.NetworkDefault(), caller);
    }

    /**
     * Registers the machine of a completed interactive login for {@code user}, audited: a machine that was a node
     * already (a forced re-authentication, an expired key) gets its new node key and the key expiry of this login,
     * recorded as {@code oldKeyExpiry}/{@code newKeyExpiry}.
     *
     * @param registrar the administrator who completed the login, or the person who logged in at the OIDC issuer
     */
    Registered forUser(Request request, User user, boolean ephemeral, KeyLife life, Caller registrar) {
        return interactive(request, new Owner(user, List.of(), false), ephemeral, life, registrar);
    }

    /**
     * Who a machine of an interactive login belongs to, as the administrator who completes it chose.
     *
     * @param user its user, when {@code tags} is empty
     * @param tags tags chosen by the administrator instead of a user (the registrar must be allowed to give them)
     * @param approved device approval given in the same step (the registrar may approve machines)
     */
    record Owner(User user, List<String> tags, boolean approved) {
        Owner {
            tags = List.copyOf(tags);
        }
    }

    /** An interactive login completed for {@code owner}: see {@link #forUser}. */
    Registered interactive(Request request, Owner owner, boolean ephemeral, KeyLife life, Caller registrar) {
        List<String> tags;
        if (owner.tags().isEmpty()) {
            tags = TagRules.forRegistration(policies.policy(), owner.user(), List.of(), request.requestTags());
        } else {
            tags = Tags.requireValid(owner.tags());
            TagRules.requireCallerMayApply(policies.policy(), registrar, tags);
        }
        User user = tags.isEmpty() ? owner.user() : null;
        // Who may register was decided where the login was completed (PendingLogins, the debug endpoint).
        return writer.change(registrar, Writer.Permission.OWN_RULE, (h, now) -> {
            Optional<Node> before = nodes.byMachineKey(h, request.machineKey());
            Registered registered = upsert(h, request, new Grant(user, tags, ephemeral, owner.approved(),
                    null, Node.RegisterMethod.INTERACTIVE, life), now);
            publishOnCommit(h, registered, now);
            Node node = registered.node();
            AuditDetails details = AuditDetails.of().put("name", node.givenName());
            if (user != null) {
                details.put("user", user.name());
            } else {
                details.put("tags", String.join(",", tags));
            }
            details.put("ipv4", node.ipv4());
            if (owner.approved()) {
                details.put("approved", true);
            }
            if (before.isPresent()) {
                details.put("oldKeyExpiry", before.get().keyExpiry()).put("newKeyExpiry", node.keyExpiry());
            } else {
                details.put("keyExpiry", node.keyExpiry());
            }
            audit.append(h, registrar.audited(now, "node.register", Long.toString(node.id()), details.map()));
            return registered;
        });
    }

    /**
     * Who the machine with this key belongs to now, when it is a node already (a re-login): its user's name, or its
     * tags; empty for a new machine.
     */
    Optional<Owner> currentOwner(MachinePublicKey machineKey) {
        return jdbi.withHandle(h -> nodes.byMachineKey(h, machineKey).map(node -> new Owner(
                node.userId() == null ? null : users.byId(h, node.userId()).orElse(null), node.tags(),
                node.authorized())));
    }

    /** Whether machines registering without a pre-authorized key wait for an administrator (device approval). */
    boolean devicesApprovalOn() {
        return jdbi.withHandle(h -> settings.read(h).devicesApprovalOn());
    }

    /**
     * The node this machine already is under this node key (a restart re-registers without a key), with its
     * owner; empty when there is none.
     */
    public Optional<Registered> current(MachinePublicKey machineKey, NodePublicKey nodeKey) {
        return jdbi.withHandle(h -> nodes.byNodeKey(h, nodeKey)
                .filter(node -> node.machineKey().equals(machineKey))
                .map(node -> {
                    User owner = node.userId() == null ? null : users.byId(h, node.userId()).orElse(null);
                    // Not let in although its user is: only device approval holds it.
                    boolean held = !node.authorized() && (owner == null || owner.approved());
                    return new Registered(node, owner, false, held);
                }));
    }

    /**
     * Logout ({@code tailscale logout}): an ephemeral node is removed, any other node's key expires now.
     * Empty when the machine has no node under this key.
     */
    public Optional<Node> logout(MachinePublicKey machineKey, NodePublicKey nodeKey) {
        Instant now = clock.instant();
        return jdbi.inTransaction(h -> {
            Optional<Node> node = nodes.byNodeKey(h, nodeKey).filter(n -> n.machineKey().equals(machineKey));
            if (node.isEmpty()) {
                return node;
            }
            if (node.get().ephemeral()) {
                nodes.delete(h, node.get().id());
                feed.publishOnCommit(h, new MeshEvent.NodeDeleted(now, node.get()));
                return node;
            }
            Node expired = node.get().withKeyExpiry(now);
            nodes.update(h, expired);
            feed.publishOnCommit(h, new MeshEvent.NodeKeyExpired(now, expired));
            return Optional.of(expired);
        });
    }

    /** What a registration grants the node: its owner or tags, how it came in, how long its key lives. */
    private record Grant(User user, List<String> tags, boolean ephemeral, boolean preauthorized, Long preAuthKeyId,
            Node.RegisterMethod method, KeyLife life) {
    }

    /** A known machine keeps its id, addresses and name; a new one gets fresh ones. */
    private Registered upsert(Handle h, Request request, Grant grant, Instant now) {
        TailnetSettings current = settings.read(h);
        boolean deviceLetIn = grant.preauthorized() || !current.devicesApprovalOn();
        // A user waiting for users approval has its machines held until it is approved, whatever the key says, and
        // also a machine that was let in before under someone else.
        boolean userLetIn = grant.user() == null || grant.user().approved();
        Optional<Node> existing = nodes.byMachineKey(h, request.machineKey());
        requireNodeKeyFree(h, request.nodeKey(), existing.map(Node::id).orElse(-1L));
        Long userId = grant.user() == null ? null : grant.user().id();
        List<IpPrefix> advertised = RouteApprovals.advertisedIn(request.hostinfo());
        Node node;
        if (existing.isPresent()) {
            Node before = existing.get();
            // Approvals were given to this machine under its owner or tags; under another one they do not carry over.
            boolean sameOwner = java.util.Objects.equals(before.userId(), userId) && before.tags().equals(grant.tags());
            node = approvals.autoApprove(h, new Node(before.id(), before.stableId(), before.machineKey(),
                    request.nodeKey(), before.discoKey(), request.hostname(), before.givenName(), userId, grant.tags(),
                    before.ipv4(), before.ipv6(), request.hostinfo(), before.endpoints(),
                    (before.authorized() || deviceLetIn) && userLetIn, grant.ephemeral(), grant.preAuthKeyId(),
                    grant.method(), before.createdAt(), before.lastSeen(),
                    before.keyExpiryDisabled() ? null : keyExpiry(current, grant.life(), now),
                    advertised, sameOwner ? before.approvedRoutes() : List.of(), before.suspended(),
                    sameOwner ? before.globalExitPriority() : null, before.keyExpiryDisabled()));
            nodes.update(h, node);
        } else {
            AddressPool.Addresses pair = addresses.allocate(ipv4 -> VipServiceStore.ipv4Taken(h, ipv4));
            String name = DnsLabels.unique(DnsLabels.fromHostname(request.hostname()),
                    candidate -> nodes.byGivenName(h, candidate).isPresent());
            Node joined = new Node(nodes.nextId(h), "n" + RandomText.alphanumeric(10) + "CNTRL",
                    request.machineKey(), request.nodeKey(), null, request.hostname(), name, userId, grant.tags(),
                    pair.ipv4(), pair.ipv6(), request.hostinfo(), List.of(), deviceLetIn && userLetIn,
                    grant.ephemeral(), grant.preAuthKeyId(), grant.method(), now, null,
                    keyExpiry(current, grant.life(), now), advertised, List.of(), false, null, false);
            // Inserted before approval: an app notes the routes it approves against the node's row.
            nodes.insert(h, joined);
            node = approvals.autoApprove(h, joined);
            if (node != joined) {
                nodes.update(h, node);
            }
        }
        boolean heldByDeviceApproval = !deviceLetIn && !existing.map(Node::authorized).orElse(false);
        return new Registered(node, grant.user(), existing.isEmpty(), heldByDeviceApproval);
    }

    private void publishOnCommit(Handle h, Registered registered, Instant now) {
        feed.publishOnCommit(h, registered.created() ? new MeshEvent.NodeCreated(now, registered.node())
                : new MeshEvent.NodeChanged(now, registered.node(), "registered again"));
        if (!registered.node().authorized()) {
            feed.publishOnCommit(h, new MeshEvent.NodeNeedsApproval(now, registered.node()));
        }
    }

    private void requireNodeKeyFree(Handle h, NodePublicKey nodeKey, long ownId) {
        Optional<Node> holder = nodes.byNodeKey(h, nodeKey);
        if (holder.isPresent() && holder.get().id() != ownId) {
            throw MeshException.conflict("node key already belongs to another machine");
        }
    }

    /**
     * The tailnet setting (days) wins over {@code node.expiry} and {@code oidc.expiry}; zero means keys do not expire.
     * An expiry taken from an ID token wins over both.
     */
    private Instant keyExpiry(TailnetSettings current, KeyLife life, Instant now) {
        Duration fromFile;
        switch (life) {
            case KeyLife.Until until -> {
                return until.at();
            }
            case KeyLife.Lifetime lifetime -> fromFile = lifetime.duration();
            case KeyLife.NetworkDefault ignored -> fromFile = options.nodeKeyExpiry();
        }
        Duration lifetime = current.nodeKeyLifetime(fromFile);
        return lifetime.isZero() ? null : now.plus(lifetime);
    }
}
