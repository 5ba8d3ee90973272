package io.meshcontrol.core.store;

import io.meshcontrol.core.model.Role;
import io.meshcontrol.core.model.User;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.StatementContext;

/**
 * Users table. Methods run in the caller's handle so that state changes can span several stores; writes need a
 * transaction, whose commit the {@link CommitListener} hears of.
 */
public final class UserStore {

    private volatile CommitListener listener = CommitListener.NOBODY;

    private volatile ChangeLog log = ChangeLog.OFF;

    /** Sets the one listener (the change feed). */
    public void onCommit(CommitListener commitListener) {
        this.listener = commitListener;
    }

    /** Every row written or deleted is also appended to {@code changeLog}, in its transaction (other instances). */
    public void logChangesTo(ChangeLog changeLog) {
        this.log = changeLog;
    }

    private static final String COLUMNS = "id, name, display_name, email, role, created_at, approved";
    private static final String PREFIXED = "u.id, u.name, u.display_name, u.email, u.role, u.created_at, u.approved";

    /** A user to insert; the store gives it its id. */
    public record NewRow(String name, String displayName, String email, Role role, Instant createdAt,
            boolean approved) {
    }

    public User insert(Handle handle, NewRow row) {
        CommitListener.requireTransaction(handle);
        long id = IdSequences.next(handle, "users");
        return insert(handle, new User(id, row.name(), row.displayName(), row.email(), row.role(), row.createdAt(),
                row.approved()));
    }

    /** Inserts a user imported with the id it had elsewhere; later users get higher ids. */
    public User insertImported(Handle handle, User user) {
        CommitListener.requireTransaction(handle);
        IdSequences.reserveThrough(handle, "users", user.id());
        return insert(handle, user);
    }

    private User insert(Handle handle, User user) {
        long id = user.id();
        handle.createUpdate("INSERT INTO users (" + COLUMNS + ") "
                        + "VALUES (:id, :name, :displayName, :email, :role, :createdAt, :approved)")
                .bind("id", id)
                .bind("name", user.name())
                .bind("displayName", user.displayName())
                .bind("email", user.email())
                .bind("role", user.role().wireName())
                .bind("createdAt", user.createdAt().toEpochMilli())
                .bind("approved", user.approved())
                .execute();
        log.append(handle, ChangeLog.Kind.USER, id);
        handle.afterCommit(() -> listener.userWritten(user));
        return user;
    }

    public void update(Handle handle, User user) {
        CommitListener.requireTransaction(handle);
        if (handle.createUpdate("UPDATE users SET name = :name, display_name = :displayName, email = :email, role = :role, "
                        + "approved = :approved WHERE id = :id")
                .bind("id", user.id())
                .bind("name", user.name())
                .bind("displayName", user.displayName())
                .bind("email", user.email())
                .bind("role", user.role().wireName())
                .bind("approved", user.approved())
                .execute() == 1) {
            log.append(handle, ChangeLog.Kind.USER, user.id());
            handle.afterCommit(() -> listener.userWritten(user));
        }
    }

    public boolean delete(Handle handle, long id) {
        CommitListener.requireTransaction(handle);
        boolean deleted = handle.createUpdate("DELETE FROM users WHERE id = :id").bind("id", id).execute() == 1;
        if (deleted) {
            log.append(handle, ChangeLog.Kind.USER, id);
            handle.afterCommit(() -> listener.userDeleted(id));
        }
        return deleted;
    }

    public Optional<User> byId(Handle handle, long id) {
        return Lookups.one(handle.createQuery("SELECT " + COLUMNS + " FROM users WHERE id = :id").bind("id", id)
                .map(UserStore::map));
    }

    public Optional<User> byName(Handle handle, String name) {
        return Lookups.one(handle.createQuery("SELECT " + COLUMNS + " FROM users WHERE name = :name").bind("name", name)
                .map(UserStore::map));
    }

    /** The users whose name or e-mail address is {@code text}, ignoring case: who already goes by it. */
    public List<User> goingBy(Handle handle, String text) {
        return handle.createQuery("SELECT " + COLUMNS + " FROM users WHERE lower(name) = lower(:text) "
                        + "OR lower(email) = lower(:text) ORDER BY id")
                .bind("text", text).map(UserStore::map).list();
    }

    /** The user an issuer's identity (its ID tokens' {@code iss} and {@code sub}) is linked to. */
    public Optional<User> byIdentity(Handle handle, String issuer, String subject) {
        return Lookups.one(
                handle.createQuery("SELECT " + PREFIXED + " FROM users u JOIN user_identities i ON i.user_id = u.id "
                        + "WHERE i.issuer = :issuer AND i.subject = :subject")
                .bind("issuer", issuer).bind("subject", subject)
                .map(UserStore::map));
    }

    /** Whether any issuer identity is linked to this user. */
    public boolean hasIdentity(Handle handle, long userId) {
        return handle.createQuery("SELECT COUNT(*) FROM user_identities WHERE user_id = :id").bind("id", userId)
                .mapTo(Integer.class).one() > 0;
    }

    public void linkIdentity(Handle handle, String issuer, String subject, long userId) {
        CommitListener.requireTransaction(handle);
        handle.createUpdate("INSERT INTO user_identities (issuer, subject, user_id) VALUES (:issuer, :subject, :userId)")
                .bind("issuer", issuer).bind("subject", subject).bind("userId", userId)
                .execute();
    }

    public Optional<User> byEmail(Handle handle, String email) {
        return Lookups.one(
                handle.createQuery("SELECT " + COLUMNS + " FROM users WHERE email = :email ORDER BY id LIMIT 1")
                .bind("email", email)
                .map(UserStore::map));
    }

    public List<User> all(Handle handle) {
        return handle.createQuery("SELECT " + COLUMNS + " FROM users ORDER BY id").map(UserStore::map).list();
    }

    private static User map(ResultSet rs, StatementContext ctx) throws SQLException {
        return new User(rs.getLong("id"), rs.getString("name"), rs.getString("display_name"), rs.getString("email"),
                Role.fromWireName(rs.getString("role")), Times.instant(rs, "created_at"), rs.getBoolean("approved"));
    }
}
