package io.meshcontrol.core.state;

import io.meshcontrol.core.Limits;
import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.event.MeshEvent;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.model.Role;
import io.meshcontrol.core.model.User;
import io.meshcontrol.core.store.AuditStore;
import io.meshcontrol.core.store.NodeStore;
import io.meshcontrol.core.store.SettingsStore;
import io.meshcontrol.core.store.UserStore;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Stream;
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

    /**
     * A person who proved to an issuer who they are (a verified ID token).
     *
     * @param issuer the token's {@code iss}, with {@code subject} its {@code sub}: the identity a user is linked to
     * @param preferredName the name the user gets on first login, if free and valid (else it is derived)
     * @param email empty unless the issuer's e-mail claim is trusted
     */
    public record PersonLogin(String issuer, String subject, String preferredName, String displayName, String email) {
        public PersonLogin {
            preferredName = nullToEmpty(preferredName);
            displayName = nullToEmpty(displayName);
            email = nullToEmpty(email);
        }
    }

    /** The user a login is for; {@code created} on a first login. */
    public record LoggedIn(User user, boolean created) {
    }

    private final Jdbi jdbi;
    private final Writer writer;
    private final UserStore store;
    private final NodeStore nodes;
    private final SettingsStore settings;
    private final Snapshots feed;
    private final Clock clock;
    private final AuditStore audit = new AuditStore();

    Users(Jdbi jdbi, Writer writer, UserStore store, NodeStore nodes, SettingsStore settings, Snapshots feed,
            Clock clock) {
        this.jdbi = jdbi;
        this.writer = writer;
        this.store = store;
        this.nodes = nodes;
        this.settings = settings;
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
        return writer.change(caller, WRITE_SCOPE, (h, now) -> {
            String name = validName(request.name());
            String email = validEmail(request.email());
            String displayName = validDisplayName(request.displayName());
            Role role = request.role() == null ? Role.MEMBER : request.role();
            requireMayManage(caller, role);
            if (role == Role.OWNER) {
                requireOwnerCredential(h, caller, "make a user owner");
            }
            requireUnclaimed(h, name, null);
            requireUnclaimed(h, email, null);
            // An administrator who makes a user approves it by doing so; users approval holds first logins only.
            User user = store.insert(h, new UserStore.NewRow(name, nullToEmpty(displayName), email, role, now,
                    true));
            feed.publishOnCommit(h, new MeshEvent.UserCreated(now, user, caller.actor()));
            audit.append(h, caller.audited(now, "user.create", Long.toString(user.id()),
                    AuditDetails.of().put("name", user.name()).put("email", user.email())
                            .put("role", user.role().wireName()).map()));
            return user;
        });
    }

    /**
     * The user a verified login is for: the one linked to the identity; else an unlinked user with the same (trusted)
     * e-mail, which an administrator made beforehand and which the identity is now linked to; else a new member, made
     * here ({@code userCreated}), who waits for approval while users approval is on ({@code userNeedsApproval}).
     * No caller: the issuer vouched for the person, and the server calls this only with a verified ID token.
     */
    public LoggedIn logIn(PersonLogin login) {
        Instant now = clock.instant();
        return jdbi.inTransaction(h -> {
            Optional<User> linked = store.byIdentity(h, login.issuer(), login.subject());
            if (linked.isPresent()) {
                return new LoggedIn(linked.get(), false);
            }
            Optional<User> byEmail = login.email().isEmpty() ? Optional.empty() : store.byEmail(h, login.email())
                    .filter(user -> !store.hasIdentity(h, user.id()));
            if (byEmail.isPresent()) {
                store.linkIdentity(h, login.issuer(), login.subject(), byEmail.get().id());
                return new LoggedIn(byEmail.get(), false);
            }
            boolean approved = !settings.read(h).usersApprovalOn();
            // A name or e-mail address belongs to one user: an address another user already goes by is not copied.
            String email = EMAIL.matcher(login.email()).matches() && login.email().length() <= Limits.EMAIL
                    && store.goingBy(h, login.email()).isEmpty()
                    ? login.email() : "";
            // The issuer's display name is taken as far as it fits (Limits.DISPLAY_NAME), not refused: the person
            // cannot change what the issuer sends.
            String displayName = Limits.cut(login.displayName(), Limits.DISPLAY_NAME);
            User user = store.insert(h, new UserStore.NewRow(freeName(h, login), displayName, email,
                    Role.MEMBER, now, approved));
            store.linkIdentity(h, login.issuer(), login.subject(), user.id());
            String actor = "login:" + login.issuer();
            feed.publishOnCommit(h, new MeshEvent.UserCreated(now, user, actor));
            if (!approved) {
                feed.publishOnCommit(h, new MeshEvent.UserNeedsApproval(now, user));
            }
            return new LoggedIn(user, true);
        });
    }

    /**
     * Users approval: lets a user made by a first login into the network. Its machines that were held for it are
     * let in too, unless device approval is on (then each still waits for its own approval).
     */
    public User approve(Caller caller, long id) {
        return writer.change(caller, WRITE_SCOPE, (h, now) -> {
            User user = store.byId(h, id).orElseThrow(() -> unknown(Long.toString(id)));
            if (user.approved()) {
                throw MeshException.invalid("user " + user.name() + " is already approved");
            }
            User approved = user.withApproved();
            store.update(h, approved);
            feed.publishOnCommit(h, new MeshEvent.UserApproved(now, approved, caller.actor()));
            audit.append(h, caller.audited(now, "user.approve", Long.toString(id), Map.of("name", user.name())));
            if (!settings.read(h).devicesApprovalOn()) {
                for (Node node : nodes.all(h)) {
                    if (Long.valueOf(id).equals(node.userId()) && !node.authorized()) {
                        Node let = node.withAuthorized(true);
                        nodes.update(h, let);
                        feed.publishOnCommit(h, new MeshEvent.NodeApproved(now, let));
                    }
                }
            }
            return approved;
        });
    }

    public User update(Caller caller, long id, UserChange change) {
        return writer.change(caller, WRITE_SCOPE, (h, now) -> {
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
                        change.displayName() == null ? updated.displayName() : validDisplayName(change.displayName()),
                        change.email() == null ? updated.email() : validEmail(change.email()));
            }
            if (change.role() != null && change.role() != current.role()) {
                requireMayManage(caller, change.role());
                if (change.role() == Role.OWNER || current.role() == Role.OWNER) {
                    requireOwnerCredential(h, caller, change.role() == Role.OWNER ? "make a user owner"
                            : "change the role of the owner " + current.name());
                }
                updated = updated.withRole(change.role());
            }
            if (updated.equals(current)) {
                return current; // nothing to write, nothing to tell
            }
            store.update(h, updated);
            audit.append(h, caller.audited(now, "user.update", Long.toString(id), AuditDetails.of()
                    .put("name", current.name())
                    .change("name", current.name(), updated.name())
                    .change("displayName", current.displayName(), updated.displayName())
                    .change("email", current.email(), updated.email())
                    .change("role", current.role().wireName(), updated.role().wireName()).map()));
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
        writer.write(caller, WRITE_SCOPE, (h, now) -> {
            User user = store.byId(h, id).orElseThrow(() -> unknown(Long.toString(id)));
            requireMayManage(caller, user.role());
            if (user.role() == Role.OWNER) {
                requireOwnerCredential(h, caller, "delete the owner " + user.name());
            }
            int owned = nodes.countForUser(h, id);
            if (owned > 0) {
                throw MeshException.invalid("user " + user.name() + " still owns " + owned
                        + " node(s); delete or re-tag them first");
            }
            store.delete(h, id);
            feed.publishOnCommit(h, new MeshEvent.UserDeleted(now, user, caller.actor()));
            audit.append(h, caller.audited(now, "user.delete", Long.toString(id), Map.of("name", user.name())));
        });
    }

    /**
     * The rank rule: nobody creates, changes (any field) or deletes a user whose role holds more than their own
     * credential, and nobody hands out such a role.
     */
    private static void requireMayManage(Caller caller, Role role) {
        if (!caller.holdsRole(role)) {
            throw MeshException.forbidden("this credential may not manage users with the role " + role.wireName()
                    + ": the role holds more than the credential");
        }
    }

    /**
     * Ownership is handed over, not granted (as with the vendor): only an owner makes a user owner, takes the role
     * from an owner or deletes one. An owner here is the local administrator (who holds the machine), a browser
     * session of an owner, or an all-access API key bounded by no one but owners (its owner and its creator).
     */
    private void requireOwnerCredential(Handle h, Caller caller, String what) {
        boolean owner = switch (caller.kind()) {
            case LOCAL_ADMIN -> true;
            case ACCESS_TOKEN -> false;
            case SESSION -> caller.owner().role() == Role.OWNER;
            case API_KEY -> caller.isAllAccess() && Stream.of(caller.apiKey().ownerUserId(),
                    caller.apiKey().creatorUserId()).filter(Objects::nonNull)
                    .allMatch(id -> store.byId(h, id).map(user -> user.role() == Role.OWNER).orElse(false));
        };
        if (!owner) {
            throw MeshException.forbidden("only an owner may " + what + ": ownership is handed over by an owner, "
                    + "not granted by admins");
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

    /** The login's preferred name, else its e-mail, else its subject, made valid and free (suffix -2, -3, ...). */
    private String freeName(Handle h, PersonLogin login) {
        String wanted = !login.preferredName().isBlank() ? login.preferredName()
                : !login.email().isBlank() ? login.email() : login.subject();
        String base = wanted.replaceAll("[^A-Za-z0-9._@+-]", "-").replaceFirst("^[^A-Za-z0-9]+", "");
        base = base.isEmpty() ? "user" : base.substring(0, Math.min(base.length(), 56));
        String name = base;
        for (int n = 2; !store.goingBy(h, name).isEmpty(); n++) {
            name = base + "-" + n;
        }
        return name;
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
