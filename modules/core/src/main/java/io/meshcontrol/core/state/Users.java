package io.meshcontrol.core.state;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.auth.RoleScopes;
import io.meshcontrol.core.auth.Scopes;
import io.meshcontrol.core.event.MeshEvent;
import io.meshcontrol.core.model.Role;
import io.meshcontrol.core.model.User;
import io.meshcontrol.core.store.NodeStore;
import io.meshcontrol.core.store.UserStore;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/**
 * Creating, renaming, re-roling and deleting users: validation, then the write with its events in one transaction
 * (the feed hears of the row and the events go out when it commits).
 */
public final class Users {

    public static final String WRITE_SCOPE = "users";
    public static final String READ_SCOPE = "users:read";

    /** Login-name-like: letters, digits and {@code . _ - + @}, starting with a letter or digit. */
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._@+-]{0,62}");
    private static final Pattern EMAIL = Pattern.compile("[^@\\s]+@[^@\\s]+");

    /** The fields of a new user; null displayName/email mean empty, null role means member. */
    public record NewUser(String name, String displayName, String email, Role role) {
    }

    /** A partial change: null fields are left as they are. */
    public record UserChange(String name, String displayName, String email, Role role) {
    }

    private final Jdbi jdbi;
    private final UserStore store;
    private final NodeStore nodes;
    private final Snapshots feed;
    private final Clock clock;

    Users(Jdbi jdbi, UserStore store, NodeStore nodes, Snapshots feed, Clock clock) {
        this.jdbi = jdbi;
        this.store = store;
        this.nodes = nodes;
        this.feed = feed;
        this.clock = clock;
    }

    public List<User> list(Caller caller) {
        caller.require(READ_SCOPE);
        return jdbi.withHandle(store::all);
    }

    public Optional<User> byName(String name) {
        return jdbi.withHandle(h -> store.byName(h, name));
    }

    public Optional<User> byId(long id) {
        return jdbi.withHandle(h -> store.byId(h, id));
    }

    public User require(Caller caller, long id) {
        caller.require(READ_SCOPE);
        return byId(id).orElseThrow(() -> unknown(Long.toString(id)));
    }

    public User requireByName(String name) {
        return byName(name).orElseThrow(() -> unknown(name));
    }

    public User create(Caller caller, NewUser request) {
        caller.require(WRITE_SCOPE);
        String name = validName(request.name());
        String email = validEmail(request.email());
        Role role = request.role() == null ? Role.MEMBER : request.role();
        requireMayManage(caller, role);
        Instant now = clock.instant();
        return jdbi.inTransaction(h -> {
            requireUnclaimed(h, name, null);
            requireUnclaimed(h, email, null);
            User user = store.insert(h, name, nullToEmpty(request.displayName()), email, role, now);
            feed.publishOnCommit(h, new MeshEvent.UserCreated(now, user, caller.actor()));
            return user;
        });
    }

    public User update(Caller caller, long id, UserChange change) {
        caller.require(WRITE_SCOPE);
        Instant now = clock.instant();
        return jdbi.inTransaction(h -> {
            User current = store.byId(h, id).orElseThrow(() -> unknown(Long.toString(id)));
            requireMayManage(caller, current.role()); // whichever field changes, not only the role
            User updated = current;
            if (change.name() != null && !change.name().equals(current.name())) {
                String name = validName(change.name());
                requireUnclaimed(h, name, current);
                updated = updated.withName(name);
            }
            if (change.email() != null && !change.email().equals(current.email())) {
                requireUnclaimed(h, validEmail(change.email()), current);
            }
            if (change.displayName() != null || change.email() != null) {
                updated = updated.withProfile(
                        change.displayName() == null ? updated.displayName() : change.displayName(),
                        change.email() == null ? updated.email() : validEmail(change.email()));
            }
            if (change.role() != null && change.role() != current.role()) {
                requireMayManage(caller, change.role());
                updated = updated.withRole(change.role());
            }
            if (updated.equals(current)) {
                return current; // nothing to write, nothing to tell
            }
            store.update(h, updated);
            if (updated.role() != current.role()) {
                feed.publishOnCommit(h, new MeshEvent.UserRoleUpdated(now, updated, current.role(), updated.role(),
                        caller.actor()));
            }
            if (!updated.name().equals(current.name()) || !updated.displayName().equals(current.displayName())
                    || !updated.email().equals(current.email())) {
                feed.publishOnCommit(h, new MeshEvent.UserChanged(now, updated, caller.actor()));
            }
            return updated;
        });
    }

    public void delete(Caller caller, long id) {
        caller.require(WRITE_SCOPE);
        Instant now = clock.instant();
        jdbi.useTransaction(h -> {
            User user = store.byId(h, id).orElseThrow(() -> unknown(Long.toString(id)));
            requireMayManage(caller, user.role());
            int owned = nodes.countForUser(h, id);
            if (owned > 0) {
                throw MeshException.invalid("user " + user.name() + " still owns " + owned
                        + " node(s); delete or re-tag them first");
            }
            store.delete(h, id);
            feed.publishOnCommit(h, new MeshEvent.UserDeleted(now, user, caller.actor()));
        });
    }

    /**
     * The rank rule: nobody creates, changes (any field) or deletes a user whose role holds more than their own
     * credential, and nobody hands out such a role.
     */
    private static void requireMayManage(Caller caller, Role role) {
        if (!Scopes.coversAll(caller.effectiveScopes(), RoleScopes.of(role))) {
            throw MeshException.forbidden("this credential may not manage users with the role " + role.wireName()
                    + ": the role holds more than the credential");
        }
    }

    /**
     * A name or e-mail address is one user's: no other user may go by it as name or e-mail in any case, since either
     * can be the login name peers and webhooks show.
     *
     * @param self the user taking it, who may keep their own; null for a new user
     */
    private void requireUnclaimed(Handle h, String nameOrEmail, User self) {
        if (nameOrEmail.isEmpty()) {
            return;
        }
        for (User other : store.goingBy(h, nameOrEmail)) {
            if (self != null && other.id() == self.id()) {
                continue;
            }
            throw MeshException.conflict(other.name().equals(nameOrEmail)
                    ? "a user named \"" + nameOrEmail + "\" already exists"
                    : "\"" + nameOrEmail + "\" is already the name or e-mail address of user " + other.name());
        }
    }

    private static MeshException unknown(String nameOrId) {
        return MeshException.notFound("no user \"" + nameOrId + "\"");
    }

    private static String validName(String name) {
        if (name == null || !NAME.matcher(name).matches()) {
            throw MeshException.invalid("invalid user name \"" + nullToEmpty(name)
                    + "\": use 1 to 63 letters, digits or . _ - + @, starting with a letter or digit");
        }
        return name;
    }

    private static String validEmail(String email) {
        if (email == null || email.isEmpty()) {
            return "";
        }
        if (!EMAIL.matcher(email).matches()) {
            throw MeshException.invalid("invalid e-mail address \"" + email + "\"");
        }
        return email;
    }

    private static String nullToEmpty(String text) {
        return text == null ? "" : text;
    }
}
