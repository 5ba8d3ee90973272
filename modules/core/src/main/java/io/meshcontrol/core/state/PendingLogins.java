package io.meshcontrol.core.state;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.RandomText;
import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.model.User;
import io.meshcontrol.core.store.AuditStore;
import io.meshcontrol.core.wire.Hostinfo;
import io.meshcontrol.core.wire.HostinfoFields;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Interactive logins: a machine without a key gets an auth id (its AuthURL ends in it) and waits; an
 * administrator completes it with {@code svc auth register --user U --auth-id ID}, or the person logs in at the
 * OIDC issuer, and the waiting machine is registered for that user (or, chosen by an administrator, for tags). An
 * administrator may also refuse it. Pending logins live in memory and lapse after {@link #LIFETIME}.
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
    private final Policies policies;
    private final Writer writer;
    private final AuditStore audit;
    private final Clock clock;

    PendingLogins(Registrations registrations, Users users, Policies policies, Writer writer, AuditStore audit,
            Clock clock) {
        this.registrations = registrations;
        this.users = users;
        this.policies = policies;
        this.writer = writer;
        this.audit = audit;
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
            if (e.getCause() instanceof MeshException refused) {
                throw refused; // an administrator refused it (reject)
            }
            throw new IllegalStateException("login " + authId + " failed", e.getCause());
        }
    }

    public boolean isPending(String authId) {
        Pending login = pending.get(authId);
        return login != null && clock.instant().isBefore(login.expires()) && !login.done().isDone();
    }

    /**
     * Why the login {@code authId} was refused ({@link #reject}), until it would have lapsed: a machine whose
     * follow-up request comes after the refusal is told too. Empty when it was not refused.
     */
    public Optional<String> refusal(String authId) {
        Pending login = pending.get(authId);
        return login != null && login.done().state() == Future.State.FAILED
                ? Optional.of(login.done().exceptionNow().getMessage()) : Optional.empty();
    }

    /** Registers the waiting machine for {@code userName} and wakes it. */
    public Registrations.Registered complete(Caller caller, String authId, String userName) {
        return complete(caller, authId, new Choice(userName, List.of(), false));
    }

    /**
     * What the administrator who completes a login chose.
     *
     * @param user the user the machine belongs to, unless {@code tags} is not empty
     * @param tags tags instead of a user (of the policy's {@code tagOwners}, ones the administrator may give)
     * @param approve let the machine in at once when device approval is on (the same scope registers and approves)
     */
    public record Choice(String user, List<String> tags, boolean approve) {
        public Choice {
            tags = tags == null ? List.of() : List.copyOf(tags);
        }
    }

    /** Registers the waiting machine as {@code choice} says and wakes it. */
    public Registrations.Registered complete(Caller caller, String authId, Choice choice) {
        caller.require(Nodes.WRITE_SCOPE);
        Pending login = requirePending(authId);
        User user = null;
        if (choice.tags().isEmpty()) {
            if (choice.user() == null || choice.user().isBlank()) {
                throw MeshException.invalid("a login is completed for a user or for tags; neither was given");
            }
            user = users.byName(choice.user()).orElseThrow(() ->
                    MeshException.notFound("no user \"" + choice.user() + "\""));
        } else if (choice.user() != null && !choice.user().isBlank()) {
            throw MeshException.invalid("a machine belongs to a user or to tags, not both: give \"user\" or \"tags\"");
        }
        Registrations.Registered registered = registrations.interactive(login.request(),
                new Registrations.Owner(user, choice.tags(), choice.approve()), login.ephemeral(),
                new Registrations.KeyLife.NetworkDefault(), caller);
        pending.remove(authId);
        login.done().complete(registered);
        return registered;
    }

    /**
     * Refuses the waiting machine's login (audited as {@code node.register.reject}): the link stops working and the
     * machine is told so ({@code tailscale up} ends with the refusal); it may ask again with a new login.
     */
    public void reject(Caller caller, String authId) {
        caller.require(Nodes.WRITE_SCOPE);
        Pending login = requirePending(authId);
        writer.change(caller, Writer.Permission.OWN_RULE, (h, now) -> {
            audit.append(h, caller.audited(now, "node.register.reject", "", Map.of(
                    "hostname", login.request().hostname(), "nodeKey", login.request().nodeKey().toText())));
            return null;
        });
        // Kept (not pending any more) until it would have lapsed, so that a machine asking after the refusal hears it.
        login.done().completeExceptionally(MeshException.forbidden("an administrator refused this machine's "
                + "login; run tailscale up again to ask once more"));
    }

    /**
     * A machine waiting for its login, as the administrator who may complete it sees it: what the machine says of
     * itself, who it belongs to now if it is a node already (a re-login), and the choices the caller has.
     *
     * @param os the client's OS ("linux", "windows" ...), empty when it did not say
     * @param clientVersion the client's version in long form, empty when unknown
     * @param requestedTags the tags it asked for ({@code --advertise-tags})
     * @param currentUser for a known machine its user now (null for a new or a tagged one)
     * @param currentTags for a known tagged machine its tags now
     * @param devicesApprovalOn device approval is on: the machine waits for approval unless approved in the same step
     * @param applicableTags the tags of the policy's {@code tagOwners} the caller may give
     */
    public record Facts(String hostname, String os, String osVersion, String clientVersion, String nodeKey,
            List<String> requestedTags, boolean ephemeral, Instant expires, String currentUser,
            List<String> currentTags, boolean devicesApprovalOn, List<String> applicableTags) {
    }

    /** The facts of the machine waiting under {@code authId}; not found when there is none (unknown or lapsed). */
    public Facts facts(Caller caller, String authId) {
        caller.require(Nodes.READ_SCOPE);
        Pending login = requirePending(authId);
        Registrations.Request request = login.request();
        HostinfoFields fields = hostinfo(request.hostinfo());
        Optional<Registrations.Owner> current = registrations.currentOwner(request.machineKey());
        return new Facts(request.hostname(), text(fields.os()), text(fields.osVersion()), text(fields.ipnVersion()),
                request.nodeKey().toText(), request.requestTags(), login.ephemeral(), login.expires(),
                current.map(Registrations.Owner::user).map(User::name).orElse(null),
                current.map(Registrations.Owner::tags).orElse(List.of()), registrations.devicesApprovalOn(),
                TagRules.applicableBy(policies.policy(), caller));
    }

    private static HostinfoFields hostinfo(String json) {
        try {
            return Hostinfo.parse(json == null || json.isBlank() ? "{}" : json).fields();
        } catch (RuntimeException e) {
            return Hostinfo.parse("{}").fields(); // stored as the client sent it; facts are shown only when readable
        }
    }

    private static String text(String value) {
        return value == null ? "" : value;
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
        if (login == null || !clock.instant().isBefore(login.expires()) || login.done().isDone()) {
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
                .filter(login -> now.isBefore(login.expires()) && !login.done().isDone())
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
