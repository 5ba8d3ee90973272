package io.meshcontrol.core.state;

import io.meshcontrol.core.Limits;
import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.auth.KeyMinting;
import io.meshcontrol.core.auth.KeySecret;
import io.meshcontrol.core.model.PreAuthKey;
import io.meshcontrol.core.model.User;
import io.meshcontrol.core.store.AuditStore;
import io.meshcontrol.core.store.PreAuthKeyStore;
import io.meshcontrol.core.store.UserStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/** Pre-auth keys ({@code mesh_tailnet_key}): create (secret shown once), list, read, revoke, validate, reap. */
public final class PreAuthKeys {

    public static final String WRITE_SCOPE = "auth_keys";
    public static final String READ_SCOPE = "auth_keys:read";
    public static final Duration DEFAULT_EXPIRY = Duration.ofDays(90);
    /** How long a revoked, expired or used-up key stays readable as invalid before it is reaped. */
    public static final Duration INVALID_RETENTION = Duration.ofDays(7);

    /** What a new key grants; {@code expiration} null means the 90-day default (or the cap, when shorter). */
    public record NewKey(String user, List<String> tags, boolean reusable, boolean ephemeral, boolean preauthorized,
            String description, Duration expiration) {
    }

    /** A key just made, with the only copy of its secret. */
    public record Issued(PreAuthKey key, User user, String secret) {
    }

    /** A key as read, with its user resolved (null for a tags-only key). */
    public record Listed(PreAuthKey key, User user) {
    }

    private final Jdbi jdbi;
    private final Writer writer;
    private final PreAuthKeyStore keys;
    private final UserStore users;
    private final Policies policies;
    private final MaxKeyLifetimes lifetimes;
    private final Clock clock;
    private final AuditStore audit = new AuditStore();

    PreAuthKeys(Jdbi jdbi, Writer writer, PreAuthKeyStore keys, UserStore users, Policies policies,
            MaxKeyLifetimes lifetimes, Clock clock) {
        this.jdbi = jdbi;
        this.writer = writer;
        this.keys = keys;
        this.users = users;
        this.policies = policies;
        this.lifetimes = lifetimes;
        this.clock = clock;
    }

    public Issued create(Caller caller, NewKey request) {
        Writer.Permission mayMint = held -> {
            held.require(WRITE_SCOPE);
            KeyMinting.requireMayMintAuthKeysAs(held, request.user());
        };
        return writer.change(caller, mayMint, (h, now) -> {
            List<String> tags = Tags.requireValid(request.tags());
            Limits.text("description", request.description(), Limits.DESCRIPTION);
            if (request.user() == null && tags.isEmpty()) {
                throw MeshException.invalid("a pre-auth key needs a user or at least one tag");
            }
            TagRules.requireCallerMayApply(policies.policy(), caller, tags);
            Duration lifetime = lifetimes.preAuthKeyLifetime(request.expiration());
            User user = request.user() == null ? null : users.byName(h, request.user())
                    .orElseThrow(() -> MeshException.notFound("no user \"" + request.user() + "\""));
            if (user != null) {
                KeyMinting.requireMayMintAuthKeysAs(caller, user);
            }
            KeySecret secret = KeySecret.generate(KeySecret.Kind.AUTH);
            PreAuthKey key = new PreAuthKey(keys.nextId(h), secret.prefix(), secret.hash(), user == null ? null : user.id(),
                    tags, request.reusable(), request.ephemeral(), request.preauthorized(),
                    request.description() == null ? "" : request.description(), now, now.plus(lifetime), null, 0, null);
            keys.insert(h, key);
            audit.append(h, caller.audited(now, "preauthkey.create", Long.toString(key.id()), AuditDetails.of()
                    .put("prefix", key.prefix()).put("user", user == null ? "" : user.name())
                    .put("tags", String.join(",", tags)).put("reusable", key.reusable())
                    .put("ephemeral", key.ephemeral()).put("expires", key.expiresAt()).map()));
            return new Issued(key, user, secret.text());
        });
    }

    public List<Listed> list(Caller caller) {
        caller.require(READ_SCOPE);
        return jdbi.withHandle(h -> keys.all(h).stream().map(key -> new Listed(key, user(h, key))).toList());
    }

    public Listed get(Caller caller, long id) {
        caller.require(READ_SCOPE);
        return jdbi.withHandle(h -> {
            PreAuthKey key = keys.byId(h, id).orElseThrow(() -> unknown(id));
            return new Listed(key, user(h, key));
        });
    }

    /** Revokes the key; it stays readable as invalid until reaped. */
    public Listed revoke(Caller caller, long id) {
        return writer.change(caller, WRITE_SCOPE, (h, now) -> {
            PreAuthKey key = keys.byId(h, id).orElseThrow(() -> unknown(id));
            keys.revoke(h, id, now);
            audit.append(h, caller.audited(now, "preauthkey.revoke", Long.toString(id),
                    AuditDetails.of().put("prefix", key.prefix()).map()));
            return new Listed(keys.byId(h, id).orElseThrow(), user(h, key));
        });
    }

    /**
     * Revokes many keys in one transaction, all or nothing: when any id is unknown, nothing changes and the refusal
     * names every such id. Each key revoked gets its own {@code preauthkey.revoke} entry; keys already revoked are
     * left alone.
     *
     * @return the ids revoked and those revoked before, in the order asked
     */
    public BulkOutcome<Long> revokeAll(Caller caller, List<Long> ids) {
        BulkRefusals.requireSize(ids);
        return writer.change(caller, WRITE_SCOPE, (h, now) -> {
            BulkRefusals refusals = new BulkRefusals("pre-auth keys");
            Map<Long, PreAuthKey> found = new LinkedHashMap<>();
            for (long id : new LinkedHashSet<>(ids)) {
                keys.byId(h, id).ifPresentOrElse(key -> found.put(id, key),
                        () -> refusals.add(Long.toString(id), unknown(id)));
            }
            refusals.throwIfAny();
            List<Long> changed = new ArrayList<>();
            List<Long> unchanged = new ArrayList<>();
            for (PreAuthKey key : found.values()) {
                if (key.revokedAt() != null) {
                    unchanged.add(key.id());
                    continue;
                }
                keys.revoke(h, key.id(), now);
                audit.append(h, caller.audited(now, "preauthkey.revoke", Long.toString(key.id()),
                        AuditDetails.of().put("prefix", key.prefix()).put("bulk", "true").map()));
                changed.add(key.id());
            }
            return new BulkOutcome<>(changed, unchanged);
        });
    }

    /**
     * The key a node presents, if it may register now. Runs in the registration's transaction so that a
     * single-use key cannot be used twice.
     */
    PreAuthKey requireUsable(Handle h, String presented, Instant now) {
        Optional<KeySecret> parsed = KeySecret.parse(KeySecret.Kind.AUTH, presented);
        Optional<PreAuthKey> key = parsed.flatMap(p -> keys.byPrefix(h, p.prefix())).filter(k -> parsed.get().matches(k.secretHash()));
        if (key.isEmpty()) {
            throw MeshException.unauthenticated("invalid auth key: not a key of this network");
        }
        String reason = key.get().invalidReason(now);
        if (reason != null) {
            throw MeshException.unauthenticated("invalid auth key: " + reason);
        }
        return key.get();
    }

    void recordUse(Handle h, PreAuthKey key, Instant now) {
        keys.recordUse(h, key.id(), now);
    }

    /** Deletes keys that have been invalid for longer than {@link #INVALID_RETENTION}. */
    public int reap() {
        Instant cutoff = clock.instant().minus(INVALID_RETENTION);
        return jdbi.inTransaction(h -> keys.reapInvalidBefore(h, cutoff));
    }

    private User user(Handle h, PreAuthKey key) {
        return key.userId() == null ? null : users.byId(h, key.userId()).orElse(null);
    }

    private static MeshException unknown(long id) {
        return MeshException.notFound("no pre-auth key " + id);
    }
}
