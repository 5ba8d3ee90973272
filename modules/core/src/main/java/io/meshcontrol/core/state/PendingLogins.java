package io.meshcontrol.core.state;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.RandomText;
import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.model.User;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Interactive logins: a machine without a key gets an auth id (its AuthURL ends in it) and waits; an
 * administrator completes it with {@code svc auth register --user U --auth-id ID}, or the person logs in at the
 * OIDC issuer, and the waiting machine is registered for that user. Pending logins live in memory and lapse after
 * {@link #LIFETIME}.
 */
public final class PendingLogins {

    public static final Duration LIFETIME = Duration.ofMinutes(15);

    /**
     * @param ephemeral the machine asked to be ephemeral (tailscaled with in-memory state)
     */
    private record Pending(Registrations.Request request, boolean ephemeral, Instant expires,
            CompletableFuture<Registrations.Registered> done) {
    }

    private final Map<String, Pending> pending = new ConcurrentHashMap<>();
    private final Registrations registrations;
    private final Users users;
    private final Clock clock;

    PendingLogins(Registrations registrations, Users users, Clock clock) {
        this.registrations = registrations;
        this.users = users;
        this.clock = clock;
    }

    /** Starts a login for a machine; returns the auth id to put into its AuthURL. */
    public String start(Registrations.Request request, boolean ephemeral) {
        dropLapsed();
        String authId = RandomText.alphanumeric(24);
        pending.put(authId, new Pending(request, ephemeral, clock.instant().plus(LIFETIME), new CompletableFuture<>()));
        return authId;
    }

    /** Waits up to {@code timeout} for the login to be completed; empty when it is not (yet). */
    public Optional<Registrations.Registered> await(String authId, Duration timeout) throws InterruptedException {
        Pending login = pending.get(authId);
        if (login == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(login.done().get(timeout.toMillis(), TimeUnit.MILLISECONDS));
        } catch (TimeoutException e) {
            return Optional.empty();
        } catch (ExecutionException e) {
            throw new IllegalStateException("login " + authId + " failed", e.getCause());
        }
    }

    public boolean isPending(String authId) {
        Pending login = pending.get(authId);
        return login != null && clock.instant().isBefore(login.expires());
    }

    /** Registers the waiting machine for {@code userName} and wakes it. */
    public Registrations.Registered complete(Caller caller, String authId, String userName) {
        caller.require(Nodes.WRITE_SCOPE);
        Pending login = requirePending(authId);
        User user = users.byName(userName).orElseThrow(() -> MeshException.notFound("no user \"" + userName + "\""));
        return complete(authId, login, user, new Registrations.KeyLife.NetworkDefault(), caller);
    }

    /**
     * Registers the waiting machine for the user who logged in at the OIDC issuer (the server verified the ID token),
     * with the key life the {@code oidc} settings ask for, and wakes it.
     */
    public Registrations.Registered completeByLogin(String authId, User user, Registrations.KeyLife life) {
        return complete(authId, requirePending(authId), user, life, Caller.forSession(user));
    }

    /** @param registrar the administrator who registered the machine, or the person who logged in (audit log) */
    private Registrations.Registered complete(String authId, Pending login, User user, Registrations.KeyLife life,
            Caller registrar) {
        Registrations.Registered registered = registrations.forUser(login.request(), user, login.ephemeral(), life,
                registrar);
        pending.remove(authId);
        login.done().complete(registered);
        return registered;
    }

    private Pending requirePending(String authId) {
        Pending login = pending.get(authId);
        if (login == null || !clock.instant().isBefore(login.expires())) {
            throw MeshException.notFound("no pending login with auth id \"" + authId + "\" (it may have expired; "
                    + "run tailscale up again for a new one)");
        }
        return login;
    }

    /**
     * A machine waiting for its login, as the debug pages show it: not its auth id, which would let whoever reads
     * the page finish the login for an account of their choosing.
     */
    public record Waiting(String hostname, String nodeKey, boolean ephemeral, Instant expires) {
    }

    /** The machines waiting for a login now, soonest to lapse first. */
    public java.util.List<Waiting> waiting() {
        Instant now = clock.instant();
        return pending.values().stream()
                .filter(login -> now.isBefore(login.expires()))
                .map(login -> new Waiting(login.request().hostname(), login.request().nodeKey().toText(),
                        login.ephemeral(), login.expires()))
                .sorted(java.util.Comparator.comparing(Waiting::expires))
                .toList();
    }

    private void dropLapsed() {
        Instant now = clock.instant();
        pending.values().removeIf(login -> !now.isBefore(login.expires()));
    }
}
