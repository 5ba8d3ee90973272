package io.meshcontrol.core.state;

import io.meshcontrol.core.Limits;
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
        String displayName = validDisplayName(request.displayName());
        Role role = request.role() == null ? Role.MEMBER : request.role();
        requireMayGrant(caller, role);
        Instant now = clock.instant();
        return jdbi.inTransaction(h -> {
            requireFreeName(h, name);
            User user = store.insert(h, name, nullToEmpty(displayName), email, role, now);
            feed.publishOnCommit(h, new MeshEvent.UserCreated(now, user, caller.actor()));
            return user;
        });
    }

    public User update(Caller caller, long id, UserChange change) {
        caller.require(WRITE_SCOPE);
        Instant now = clock.instant();
        return jdbi.inTransaction(h -> {
            User current = store.byId(h, id).orElseThrow(() -> unknown(Long.toString(id)));
            User updated = current;
            if (change.name() != null && !change.name().equals(current.name())) {
                String name = validName(change.name());
                requireFreeName(h, name);
                updated = updated.withName(name);
            }
            if (change.displayName() != null || change.email() != null) {
                updated = updated.withProfile(
                        change.displayName() == null ? updated.displayName() : validDisplayName(change.displayName()),
                        change.email() == null ? updated.email() : validEmail(change.email()));
            }
            if (change.role() != null && change.role() != current.role()) {
                requireMayGrant(caller, current.role());
                requireMayGrant(caller, change.role());
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
            requireMayGrant(caller, user.role());
            int owned = nodes.countForUser(h, id);
            if (owned > 0) {
                throw MeshException.invalid("user " + user.name() + " still owns " + owned
                        + " node(s); delete or re-tag them first");
            }
            store.delete(h, id);
            feed.publishOnCommit(h, new MeshEvent.UserDeleted(now, user, caller.actor()));
        });
    }

    /** Nobody hands out (or takes away) a role with more rights than they hold themselves. */
    private static void requireMayGrant(Caller caller, Role role) {
        if (!Scopes.coversAll(caller.effectiveScopes(), RoleScopes.of(role))) {
            throw MeshException.forbidden("this credential may not manage users with the role " + role.wireName()
                    + ": the role holds more than the credential");
        }
    }

    private void requireFreeName(Handle h, String name) {
        if (store.byName(h, name).isPresent()) {
            throw MeshException.conflict("a user named \"" + name + "\" already exists");
        }
    }

    private static MeshException unknown(String nameOrId) {
        return MeshException.notFound("no user \"" + nameOrId + "\"");
    }

    private static String validName(String name) {
        Limits.text("name", name, Limits.NAME);
        if (name == null || !NAME.matcher(name).matches()) {
            throw MeshException.invalid("invalid user name \"" + nullToEmpty(name)
                    + "\": use 1 to 63 letters, digits or . _ - + @, starting with a letter or digit");
        }
        return name;
    }

    private static String validDisplayName(String displayName) {
        return Limits.text("displayName", displayName, Limits.DISPLAY_NAME);
    }

    private static String validEmail(String email) {
        if (email == null || email.isEmpty()) {
            return "";
        }
        Limits.text("email", email, Limits.EMAIL);
        if (!EMAIL.matcher(email).matches()) {
            throw MeshException.invalid("invalid e-mail address \"" + email + "\"");
        }
        return email;
    }

    private static String nullToEmpty(String text) {
        return text == null ? "" : text;
    }
}
