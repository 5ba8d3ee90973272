package io.meshcontrol.core.state;

import io.meshcontrol.core.GoDuration;
import io.meshcontrol.core.Limits;
import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.auth.RoleScopes;
import io.meshcontrol.core.auth.Scopes;
import io.meshcontrol.core.event.MeshEvent;
import io.meshcontrol.core.model.AccessRequest;
import io.meshcontrol.core.model.AuditEntry;
import io.meshcontrol.core.model.User;
import io.meshcontrol.core.store.AccessRequestStore;
import io.meshcontrol.core.store.AuditStore;
import io.meshcontrol.core.store.ChangeLog;
import io.meshcontrol.core.store.UserStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/**
 * Just-in-time access (docs/access-requests.md): a user asks to be in a policy group for a while, with a reason; an
 * approver (a credential holding {@link #DECIDE_SCOPE}) approves, denies, or revokes a granted membership early; a
 * granted membership ends by itself ({@link #expireGrants}, from housekeeping). While granted, the membership is part
 * of the policy in force ({@link Policies#grantMembers}), so maps follow as for any policy change. Each change is one
 * transaction with its audit entry and its event.
 */
public final class AccessRequests {

    /** Deciding means changing who is in a group: what a policy writer may do anyway. */
    public static final String DECIDE_SCOPE = Policies.WRITE_SCOPE;
    public static final String READ_SCOPE = Policies.READ_SCOPE;
    public static final Duration MIN_DURATION = Duration.ofMinutes(1);
    public static final Duration MAX_DURATION = Duration.ofDays(30);
    /** The actor of a membership that ran out. */
    static final String EXPIRY_ACTOR = "access-request-expiry";

    /**
     * What a user asks for.
     *
     * @param user the user's name, or null for the caller's own user
     * @param duration Go duration syntax ({@code 90m}, {@code 8h})
     */
    public record NewRequest(String user, String group, String reason, String duration) {
    }

    private final Jdbi jdbi;
    private final Writer writer;
    private final AccessRequestStore store;
    private final UserStore users;
    private final AuditStore audit;
    private final Policies policies;
    private final Snapshots feed;
    private final Clock clock;

    AccessRequests(Jdbi jdbi, Writer writer, AccessRequestStore store, UserStore users, AuditStore audit,
            Policies policies, Snapshots feed, Clock clock) {
        this.jdbi = jdbi;
        this.writer = writer;
        this.store = store;
        this.users = users;
        this.audit = audit;
        this.policies = policies;
        this.feed = feed;
        this.clock = clock;
        applyGrants(null);
    }

    /**
     * Files a request. A user files for themself; filing for another user takes {@link #DECIDE_SCOPE}. The group must
     * be one the policy defines and the user not already in it (directly, or by a pending or granted request).
     */
    public AccessRequest create(Caller caller, NewRequest request) {
        String group = required("group", request.group());
        String reason = required("reason", Limits.text("reason", request.reason(), Limits.DESCRIPTION)).strip();
        Duration duration = duration(required("duration", request.duration()));
        if (!policies.policy().groups().containsKey(group)) {
            throw MeshException.invalid("the policy has no group \"" + group + "\"");
        }
        // Whom the caller may file for depends on the user named: requester() checks it first.
        return writer.change(caller, Writer.Permission.OWN_RULE, (h, now) -> {
            User user = requester(h, caller, request.user());
            if (!user.approved()) {
                throw MeshException.invalid("user " + user.name() + " waits for approval and cannot ask for access");
            }
            Set<String> logins = PolicyInventories.user(user).logins();
            if (policies.policy().groups().get(group).stream().anyMatch(logins::contains)) {
                throw MeshException.conflict("user " + user.name() + " is already in " + group);
            }
            for (AccessRequest open : store.list(h, user.id())) {
                if (open.group().equals(group) && (open.state() == AccessRequest.State.PENDING || open.grants(now))) {
                    throw MeshException.conflict("user " + user.name() + " already has access request " + open.id()
                            + " for " + group + " (" + open.state().wireName() + ")");
                }
            }
            AccessRequest created = store.insert(h, new AccessRequestStore.NewRow(user.id(), group, reason, duration,
                    caller.actor(), now));
            audit.append(h, caller.audited(now, "accessrequest.create", Long.toString(created.id()),
                    Map.of("user", user.name(), "group", group, "duration", GoDuration.format(duration),
                            "reason", reason)));
            feed.publishOnCommit(h, new MeshEvent.AccessRequestCreated(now, created, user, caller.actor()));
            return created;
        });
    }

    /** Everyone's requests for a reader of the policy; otherwise the caller's own. Newest first. */
    public List<AccessRequest> list(Caller caller) {
        if (caller.may(READ_SCOPE)) {
            return jdbi.withHandle(h -> store.list(h, null));
        }
        User own = ownUser(caller);
        return jdbi.withHandle(h -> store.list(h, own.id()));
    }

    public AccessRequest get(Caller caller, long id) {
        AccessRequest request = jdbi.withHandle(h -> store.byId(h, id)).orElseThrow(() -> unknown(id));
        if (!caller.may(READ_SCOPE) && (caller.owner() == null || caller.owner().id() != request.userId())) {
            throw unknown(id); // another user's request: as if there were none
        }
        return request;
    }

    /** Grants the membership from now for the requested duration. Nobody decides their own request. */
    public AccessRequest approve(Caller caller, long id) {
        AccessRequest approved = decide(caller, id, AccessRequest.State.PENDING, "accessrequest.approve",
                (request, now) -> request.approved(caller.actor(), now), MeshEvent.AccessRequestApproved::new);
        applyGrants(caller.actor());
        return approved;
    }

    public AccessRequest deny(Caller caller, long id) {
        return decide(caller, id, AccessRequest.State.PENDING, "accessrequest.deny",
                (request, now) -> request.denied(caller.actor(), now), MeshEvent.AccessRequestDenied::new);
    }

    /** Ends a granted membership before it runs out. */
    public AccessRequest revoke(Caller caller, long id) {
        AccessRequest revoked = decide(caller, id, AccessRequest.State.APPROVED, "accessrequest.revoke",
                (request, now) -> request.ended(caller.actor(), now), MeshEvent.AccessRequestRevoked::new);
        applyGrants(caller.actor());
        return revoked;
    }

    /**
     * Ends the memberships whose time is up (housekeeping). The access request events have no type for that; the
     * policy in force changes as for a revocation, with its {@code policyUpdate}.
     *
     * @return how many ended
     */
    public int expireGrants() {
        Instant now = clock.instant();
        int ended = jdbi.inTransaction(h -> {
            int count = 0;
            for (AccessRequest request : store.inState(h, AccessRequest.State.APPROVED)) {
                if (!request.grants(now)) {
                    store.update(h, request.ended(null, now));
                    feed.logChange(h, ChangeLog.Kind.GRANTS, Long.toString(request.id()));
                    audit.append(h, new AuditEntry(0, now, EXPIRY_ACTOR, "", "accessrequest.expire",
                            Long.toString(request.id()), Map.of("group", request.group())));
                    count++;
                }
            }
            return count;
        });
        if (ended > 0) {
            applyGrants(EXPIRY_ACTOR);
        }
        return ended;
    }

    /**
     * The users who may decide access requests: those whose role holds {@link #DECIDE_SCOPE} (owners, admins,
     * network admins), approved. E-mail deliveries addressed to {@code approvers} go to them.
     */
    public List<User> approvers() {
        return jdbi.withHandle(users::all).stream()
                .filter(user -> user.approved() && Scopes.covers(RoleScopes.of(user.role()), DECIDE_SCOPE))
                .toList();
    }

    private AccessRequest decide(Caller caller, long id, AccessRequest.State from, String action,
            BiFunction<AccessRequest, Instant, AccessRequest> change, EventFactory event) {
        return writer.change(caller, DECIDE_SCOPE, (h, now) -> {
            AccessRequest request = store.byId(h, id).orElseThrow(() -> unknown(id));
            if (caller.owner() != null && caller.owner().id() == request.userId()) {
                throw MeshException.forbidden("nobody decides their own access request");
            }
            if (request.state() != from || (from == AccessRequest.State.APPROVED && !request.grants(now))) {
                throw MeshException.conflict("access request " + id + " is " + request.state().wireName()
                        + (from == AccessRequest.State.PENDING ? "; only a pending request is decided"
                        : "; only a granted membership is revoked"));
            }
            User user = users.byId(h, request.userId()).orElseThrow(() -> unknown(id));
            AccessRequest changed = change.apply(request, now);
            store.update(h, changed);
            feed.logChange(h, ChangeLog.Kind.GRANTS, Long.toString(id));
            audit.append(h, caller.audited(now, action, Long.toString(id),
                    Map.of("user", user.name(), "group", request.group())));
            feed.publishOnCommit(h, event.of(now, changed, user, caller.actor()));
            return changed;
        });
    }

    @FunctionalInterface
    private interface EventFactory {
        MeshEvent of(Instant at, AccessRequest request, User user, String actor);
    }

    /**
     * Puts the memberships granted now in force. Read from the database after the change committed, outside its
     * transaction (the policy's lock is taken before the write lock when a policy is saved, never after), and
     * serialized here so that the newest reading is the last one applied. A group whose members changed is a policy
     * change: {@code policyUpdate} goes out once the maps have it.
     *
     * @param actor who changed the grants; null at start-up, which changes nothing anyone saw
     */
    /** Puts the memberships granted now in force again: another instance changed them. */
    void followGrants() {
        applyGrants(null);
    }

    private synchronized void applyGrants(String actor) {
        Instant now = clock.instant();
        Map<String, List<String>> members = new LinkedHashMap<>();
        jdbi.useHandle(h -> {
            for (AccessRequest request : store.inState(h, AccessRequest.State.APPROVED)) {
                if (request.grants(now)) {
                    users.byId(h, request.userId()).ifPresent(user -> members
                            .computeIfAbsent(request.group(), g -> new ArrayList<>())
                            .add(PolicyInventories.user(user).login()));
                }
            }
        });
        if (policies.grantMembers(members) && actor != null) {
            feed.publish(new MeshEvent.PolicyUpdated(now, actor));
        }
    }

    private User requester(Handle h, Caller caller, String name) {
        if (name == null || name.isEmpty() || (caller.owner() != null && caller.owner().name().equals(name))) {
            User own = ownUser(caller);
            return users.byId(h, own.id()).orElseThrow(() -> MeshException.notFound("no user " + own.name()));
        }
        if (!caller.may(DECIDE_SCOPE)) {
            throw MeshException.forbidden("filing an access request for another user needs the scope \""
                    + DECIDE_SCOPE + "\"");
        }
        return users.byName(h, name).orElseThrow(() -> MeshException.notFound("no user \"" + name + "\""));
    }

    private static User ownUser(Caller caller) {
        if (caller.owner() == null) {
            throw MeshException.invalid("this credential belongs to no user: name the user the request is for");
        }
        return caller.owner();
    }

    private static Duration duration(String text) {
        Duration duration;
        try {
            duration = GoDuration.parse(text);
        } catch (IllegalArgumentException e) {
            throw MeshException.invalid("duration: " + e.getMessage());
        }
        if (duration.compareTo(MIN_DURATION) < 0 || duration.compareTo(MAX_DURATION) > 0) {
            throw MeshException.invalid("duration must be between " + GoDuration.format(MIN_DURATION) + " and "
                    + GoDuration.format(MAX_DURATION) + ", got " + text);
        }
        return duration;
    }

    private static String required(String field, String value) {
        if (value == null || value.isBlank()) {
            throw MeshException.invalid("an access request needs the field \"" + field + "\"");
        }
        return value;
    }

    private static MeshException unknown(long id) {
        return MeshException.notFound("no access request " + id);
    }
}
