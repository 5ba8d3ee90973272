package io.meshcontrol.core.state;

import io.meshcontrol.core.Limits;
import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.RandomText;
import io.meshcontrol.core.auth.KeySecret;
import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.auth.KeyMinting;
import io.meshcontrol.core.auth.Scopes;
import io.meshcontrol.core.model.ApiKey;
import io.meshcontrol.core.model.User;
import io.meshcontrol.core.store.ApiKeyStore;
import io.meshcontrol.core.store.AuditStore;
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
import java.util.concurrent.ConcurrentHashMap;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/** The API key lifecycle of the spec: create (secret shown once), list, expire (revoke), rotate, authenticate. */
public final class ApiKeys {

    public static final Duration DEFAULT_EXPIRY = Duration.ofDays(90);
    public static final String READ_SCOPE = KeyMinting.MANAGE_SCOPE + ":read";
    /** How often the last-used time of one key is written, so that every request is not a write. */
    private static final Duration LAST_USED_RESOLUTION = Duration.ofMinutes(1);

    /** A key just made or rotated, with the only copy of its secret. */
    public record Issued(ApiKey key, User owner, String secret, List<String> droppedScopes) {
    }

    /** A key as listed, with its owner resolved. */
    public record Listed(ApiKey key, User owner) {
    }

    private final Jdbi jdbi;
    private final Writer writer;
    private final ApiKeyStore keys;
    private final UserStore users;
    private final AuditStore audit;
    private final MaxKeyLifetimes lifetimes;
    private final Clock clock;
    private final Map<String, Instant> lastUseWritten = new ConcurrentHashMap<>();

    ApiKeys(Jdbi jdbi, Writer writer, ApiKeyStore keys, UserStore users, AuditStore audit, MaxKeyLifetimes lifetimes,
            Clock clock) {
        this.jdbi = jdbi;
        this.writer = writer;
        this.keys = keys;
        this.users = users;
        this.audit = audit;
        this.lifetimes = lifetimes;
        this.clock = clock;
    }

    /**
     * @param userName the owner ({@code --user}), or null
     * @param expiration how long the key lives, at most {@code api_keys.max_expiration}; null for the 90-day default
     */
    public Issued create(Caller caller, String userName, List<String> scopes, String description, Duration expiration) {
        List<String> requested = Scopes.requireKnown(Limits.count("scopes", scopes == null ? List.of() : scopes,
                Limits.SCOPES));
        Limits.text("description", description, Limits.DESCRIPTION);
        Duration lifetime = lifetimes.apiKeyLifetime(expiration);
        return writer.change(caller, held -> KeyMinting.requireMayManageKeys(held, "mint"), (h, now) -> {
            User owner = userName == null ? null
                    : users.byName(h, userName).orElseThrow(() -> MeshException.notFound("no user \"" + userName + "\""));
            KeyMinting.Decision decision = KeyMinting.decide(caller, owner, requested);
            KeySecret secret = KeySecret.generate(KeySecret.Kind.API);
            ApiKey key = new ApiKey("k" + RandomText.alphanumeric(10) + "CNTRL", secret.prefix(), secret.hash(),
                    decision.owner() == null ? null : decision.owner().id(), decision.creatorUserId(), decision.scopes(),
                    description == null ? "" : description, now, now.plus(lifetime), null, null);
            keys.insert(h, key);
            audit.append(h, caller.audited(now, "apikey.create", key.id(), Map.of("prefix", key.prefix())));
            return new Issued(key, decision.owner(), secret.text(), decision.droppedScopes());
        });
    }

    public List<Listed> list(Caller caller) {
        caller.require(READ_SCOPE);
        return jdbi.withHandle(h -> keys.all(h).stream().map(key -> new Listed(key, owner(h, key))).toList());
    }

    /** Revokes a key: it stops working at once and cannot be rotated afterwards. */
    public Listed expire(Caller caller, String prefix) {
        return writer.change(caller, held -> KeyMinting.requireMayManageKeys(held, "expire"), (h, now) -> {
            ApiKey key = byPrefix(h, prefix);
            Caller target = standingFor(h, key).orElseThrow(() -> unknownKey(prefix));
            KeyMinting.requireMayManage(caller, "expire", target);
            keys.revoke(h, key.id(), now);
            audit.append(h, caller.audited(now, "apikey.expire", key.id(), Map.of("prefix", key.prefix())));
            return new Listed(keys.byPrefix(h, key.prefix()).orElseThrow(), target.owner());
        });
    }

    /**
     * Revokes many keys in one transaction, all or nothing: when any prefix is unknown or names a key the caller may
     * not manage, nothing changes and the refusal names every such prefix. Each key revoked gets its own
     * {@code apikey.expire} entry; keys already expired are left alone.
     *
     * @return the prefixes revoked and those already expired, in the order asked
     */
    public BulkOutcome<String> expireAll(Caller caller, List<String> prefixes) {
        BulkRefusals.requireSize(prefixes);
        return writer.change(caller, held -> KeyMinting.requireMayManageKeys(held, "expire"), (h, now) -> {
            BulkRefusals refusals = new BulkRefusals("API keys");
            Map<String, ApiKey> found = new LinkedHashMap<>();
            for (String prefix : new LinkedHashSet<>(prefixes)) {
                try {
                    ApiKey key = byPrefix(h, prefix);
                    Caller target = standingFor(h, key).orElseThrow(() -> unknownKey(prefix));
                    KeyMinting.requireMayManage(caller, "expire", target);
                    found.put(prefix, key);
                } catch (MeshException e) {
                    refusals.add(prefix, e);
                }
            }
            refusals.throwIfAny();
            List<String> changed = new ArrayList<>();
            List<String> unchanged = new ArrayList<>();
            found.forEach((prefix, key) -> {
                if (key.isExpired(now)) {
                    unchanged.add(prefix);
                    return;
                }
                keys.revoke(h, key.id(), now);
                audit.append(h, caller.audited(now, "apikey.expire", key.id(),
                        Map.of("prefix", key.prefix(), "bulk", "true")));
                changed.add(prefix);
            });
            return new BulkOutcome<>(changed, unchanged);
        });
    }

    /**
     * New secret and prefix; id, owner, creator, scopes and description stay. The expiry stays unless a new
     * lifetime is given (counted from now, at most {@code api_keys.max_expiration}).
     */
    public Issued rotate(Caller caller, String prefix, Duration expiration) {
        Duration lifetime = expiration == null ? null : lifetimes.apiKeyLifetime(expiration);
        return writer.change(caller, held -> KeyMinting.requireMayManageKeys(held, "rotate"), (h, now) -> {
            ApiKey key = byPrefix(h, prefix);
            Caller target = standingFor(h, key).orElseThrow(() -> unknownKey(prefix));
            KeyMinting.requireMayManage(caller, "rotate", target);
            if (key.isExpired(now)) {
                throw MeshException.invalid("key " + key.prefix() + " has expired and cannot be rotated; create a new key");
            }
            KeySecret secret = KeySecret.generate(KeySecret.Kind.API);
            Instant expiresAt = lifetime == null ? key.expiresAt() : now.plus(lifetime);
            keys.rotate(h, key.id(), secret.prefix(), secret.hash(), expiresAt);
            audit.append(h, caller.audited(now, "apikey.rotate", key.id(),
                    Map.of("oldPrefix", key.prefix(), "newPrefix", secret.prefix())));
            return new Issued(key.rotated(secret.prefix(), secret.hash(), expiresAt), target.owner(), secret.text(),
                    List.of());
        });
    }

    /** The caller a presented key stands for; empty when it is unknown, wrong, expired or revoked. */
    public Optional<Caller> authenticate(String presented) {
        Optional<KeySecret> parsed = KeySecret.parse(KeySecret.Kind.API, presented);
        if (parsed.isEmpty()) {
            return Optional.empty();
        }
        Instant now = clock.instant();
        Optional<Caller> caller = jdbi.withHandle(h -> {
            Optional<ApiKey> found = keys.byPrefix(h, parsed.get().prefix());
            if (found.isEmpty() || !parsed.get().matches(found.get().secretHash()) || found.get().isExpired(now)) {
                return Optional.<Caller>empty();
            }
            return standingFor(h, found.get());
        });
        caller.ifPresent(c -> noteUse(c.apiKey(), now));
        return caller;
    }

    private void noteUse(ApiKey key, Instant now) {
        Instant written = lastUseWritten.get(key.id());
        if (written == null || Duration.between(written, now).compareTo(LAST_USED_RESOLUTION) >= 0) {
            lastUseWritten.put(key.id(), now);
            jdbi.useTransaction(h -> keys.markUsed(h, key.id(), now));
        }
    }

    private ApiKey byPrefix(Handle h, String prefix) {
        String normalized = KeySecret.normalizePrefix(KeySecret.Kind.API, prefix);
        return keys.byPrefix(h, normalized).orElseThrow(() -> unknownKey(prefix));
    }

    private User owner(Handle h, ApiKey key) {
        return key.ownerUserId() == null ? null : users.byId(h, key.ownerUserId()).orElse(null);
    }

    /**
     * The caller a key stands for now, bounded by its owner and its creator as they are; empty when either is
     * recorded but gone (the key goes with them; outside a transaction a read may fall between the two deletes).
     */
    private Optional<Caller> standingFor(Handle h, ApiKey key) {
        User owner = owner(h, key);
        User creator = key.creatorUserId() == null ? null : users.byId(h, key.creatorUserId()).orElse(null);
        if (key.ownerUserId() != null && owner == null || key.creatorUserId() != null && creator == null) {
            return Optional.empty();
        }
        return Optional.of(Caller.forApiKey(key, owner, creator));
    }

    private static MeshException unknownKey(String prefix) {
        return MeshException.notFound("no API key with prefix \"" + prefix + "\"");
    }
}
