package io.meshcontrol.core.state;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.RandomText;
import io.meshcontrol.core.crypto.Sha256;
import io.meshcontrol.core.model.User;
import io.meshcontrol.core.store.BrowserSessionStore;
import io.meshcontrol.core.store.UserStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.jdbi.v3.core.Jdbi;

/**
 * Browser sessions of people who logged in through the OIDC issuer (for the console): a random secret for the
 * cookie, of which only the SHA-256 is stored, so a copy of the database opens no session. A session stands for its
 * user as the user is at each request (a changed role applies at once; a deleted user ends it).
 */
public final class BrowserSessions {

    /** How long a session lasts; the person logs in again after it. */
    public static final Duration LIFETIME = Duration.ofHours(12);
    /** 43 characters of 62 symbols: just over 256 bits. */
    private static final int SECRET_LENGTH = 43;

    /** A session just started, with the only copy of its secret (for the cookie). */
    public record Started(String secret, User user, Instant expires) {
    }

    /** A live session's user. */
    public record Session(User user, Instant expires) {
    }

    private final Jdbi jdbi;
    private final BrowserSessionStore store;
    private final UserStore users;
    private final Clock clock;

    BrowserSessions(Jdbi jdbi, BrowserSessionStore store, UserStore users, Clock clock) {
        this.jdbi = jdbi;
        this.store = store;
        this.users = users;
        this.clock = clock;
    }

    /** Starts a session for a user who just logged in; refused while the user waits for approval. */
    public Started start(User user) {
        if (!user.approved()) {
            throw MeshException.forbidden("user " + user.name() + " waits for approval by an administrator");
        }
        Instant now = clock.instant();
        String secret = RandomText.alphanumeric(SECRET_LENGTH);
        Instant expires = now.plus(LIFETIME);
        jdbi.useTransaction(h -> {
            store.deleteExpired(h, now);
            store.insert(h, new BrowserSessionStore.Row(Sha256.hex(secret), user.id(), now, expires));
        });
        return new Started(secret, user, expires);
    }

    /** The live session a cookie's secret opens: not expired, its user still there and approved. */
    public Optional<Session> find(String secret) {
        Instant now = clock.instant();
        return jdbi.withHandle(h -> store.byHash(h, Sha256.hex(secret))
                .filter(row -> now.isBefore(row.expiresAt()))
                .flatMap(row -> users.byId(h, row.userId()).filter(User::approved)
                        .map(user -> new Session(user, row.expiresAt()))));
    }

    /** Logout: the secret opens nothing any more. */
    public void end(String secret) {
        jdbi.useTransaction(h -> store.delete(h, Sha256.hex(secret)));
    }
}
