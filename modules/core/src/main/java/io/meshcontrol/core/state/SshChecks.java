package io.meshcontrol.core.state;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.RandomText;
import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.key.MachinePublicKey;
import io.meshcontrol.core.model.AuditEntry;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.model.User;
import io.meshcontrol.core.store.AuditStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Tailscale SSH check mode: a {@code "action": "check"} rule makes the destination machine hold an incoming session
 * and ask this server ({@code /machine/ssh/action/...}) what to do. The server holds it under an auth id until the
 * person proves it is them (a fresh login at the OIDC issuer as the owner of the source machine) or an administrator
 * approves or rejects it; after {@link #LIFETIME} an undecided check lapses as a rejection. A decision is final for
 * its check. A successful check is remembered for the rule's {@code checkPeriod}: the same source logging in to the
 * same destination as the same local user is let in without asking again until it runs out.
 *
 * <p>Checks and the memory of successful ones live in memory (a restarted server asks again); every check is in the
 * audit log: {@code ssh.check.request}, {@code ssh.check.approve}, {@code ssh.check.reject}, {@code ssh.check.expire}.
 * The spec's event table has no SSH check event, so there is no webhook. The clock decides every period and lapse.
 */
public final class SshChecks {

    /** How long a check waits for its decision (the client itself gives up after 30 minutes). */
    public static final Duration LIFETIME = Duration.ofMinutes(15);
    /** Who may decide a check from the console, the CLI or {@code /api/v1}: as for completing a machine's login. */
    public static final String DECIDE_SCOPE = Nodes.WRITE_SCOPE;
    public static final String READ_SCOPE = Nodes.READ_SCOPE;
    /** The audit actor of a check that lapsed. */
    static final String EXPIRY_ACTOR = "ssh-check-expiry";
    static final String TAGGED_SOURCE = "SSH check mode needs a source machine owned by a person: "
            + "a tagged machine cannot prove who is using it";

    /** What the destination machine is told about a session. */
    public sealed interface Answer {
        /** Let the session in. */
        record Accept() implements Answer {
        }

        /** Refuse it; the message is shown to the person. */
        record Reject(String message) implements Answer {
        }

        /** Hold it: the person or an administrator decides check {@code authId}. */
        record Hold(String authId) implements Answer {
        }
    }

    /**
     * A check, as the console, the CLI and the check page show it.
     *
     * @param srcOwner the name of the user who owns the source machine: the person who must log in
     */
    public record Check(String authId, long srcNodeId, String srcNode, String srcOwner, long dstNodeId,
            String dstNode, String localUser, Instant requested, Instant expires) {
    }

    /**
     * The rules in force, as the maps of a snapshot carry them: the {@code checkPeriod} of the check rule that covers
     * a session, if one does. The server's access control answers it, so a check is judged by the very rules the
     * destination was sent (postures and locations included), compiled once.
     */
    @FunctionalInterface
    public interface CheckRules {
        Optional<Duration> checkPeriod(NetworkSnapshot snapshot, long srcId, long dstId, String localUser);
    }

    /** A check and its decision, once made. */
    private record Held(Check check, long srcOwnerId, CompletableFuture<Answer> verdict) {
    }

    /** Who logged in to what as whom: the key of a remembered successful check. */
    private record Pair(long src, long dst, String localUser) {
    }

    private final Map<String, Held> checks = new ConcurrentHashMap<>();
    private final Map<Pair, Instant> passed = new ConcurrentHashMap<>();
    private final Writer writer;
    private final AuditStore audit;
    private final Snapshots snapshots;
    private final Clock clock;

    SshChecks(Writer writer, AuditStore audit, Snapshots snapshots, Clock clock) {
        this.writer = writer;
        this.audit = audit;
        this.snapshots = snapshots;
        this.clock = clock;
    }

    /**
     * A session from machine {@code srcId} to {@code dstId} as {@code localUser} waits: the destination, whose
     * machine key {@code asker} is (a request from any other machine is refused), asks what to do under
     * {@code rules}.
     */
    public Answer request(MachinePublicKey asker, long srcId, long dstId, String localUser, CheckRules rules) {
        dropLapsed();
        NetworkSnapshot snapshot = snapshots.current();
        Node dst = snapshot.node(dstId).filter(node -> node.machineKey().equals(asker)).orElseThrow(() ->
                MeshException.forbidden("only the destination machine asks about its own SSH sessions"));
        Optional<Node> src = snapshot.node(srcId);
        if (src.isEmpty()) {
            return new Answer.Reject("the source machine is not in this network");
        }
        Optional<Duration> period = rules.checkPeriod(snapshot, srcId, dstId, localUser);
        if (period.isEmpty()) {
            // The policy changed since the destination's map: its next map tells it the new rules.
            return new Answer.Reject("the policy no longer asks for a check for this session; try again");
        }
        Instant now = clock.instant();
        Node source = src.get();
        if (source.userId() == null || !source.tags().isEmpty()) {
            writer.record(new AuditEntry(0, now, actor(dst), "", "ssh.check.reject", "",
                    Map.of("srcNode", source.givenName(), "dstNode", dst.givenName(), "localUser", localUser,
                            "reason", "tagged source")));
            return new Answer.Reject(TAGGED_SOURCE);
        }
        Instant last = passed.get(new Pair(srcId, dstId, localUser));
        if (last != null && now.isBefore(last.plus(period.get()))) {
            return new Answer.Accept();
        }
        User owner = snapshot.user(source.userId()).orElseThrow(() ->
                MeshException.notFound("the source machine's owner is gone"));
        Check check = new Check(RandomText.alphanumeric(24), srcId, source.givenName(), owner.name(), dstId,
                dst.givenName(), localUser, now, now.plus(LIFETIME));
        // Held first: whoever hears of the entry on the feed finds the check waiting.
        checks.put(check.authId(), new Held(check, owner.id(), new CompletableFuture<>()));
        writer.record(new AuditEntry(0, now, actor(dst), "", "ssh.check.request", check.authId(), details(check, "")));
        return new Answer.Hold(check.authId());
    }

    /**
     * Waits up to {@code timeout} for check {@code authId}'s decision; empty while it has none. A check this server
     * does not know (lapsed long ago, or made before a restart) is a rejection: the person connects again.
     */
    public Optional<Answer> await(MachinePublicKey asker, String authId, Duration timeout)
            throws InterruptedException {
        Held held = checks.get(authId);
        if (held == null) {
            return Optional.of(new Answer.Reject("this SSH check is no longer known; connect again"));
        }
        Node dst = snapshots.current().node(held.check().dstNodeId()).orElse(null);
        if (dst == null || !dst.machineKey().equals(asker)) {
            throw MeshException.forbidden("only the destination machine asks about its own SSH sessions");
        }
        Duration left = Duration.between(clock.instant(), held.check().expires());
        try {
            if (left.isPositive()) {
                return Optional.of(held.verdict().get(Math.min(timeout.toMillis(), left.toMillis()),
                        TimeUnit.MILLISECONDS));
            }
        } catch (TimeoutException e) {
            // still undecided: lapsed, or the caller asks again
        } catch (ExecutionException e) {
            throw new IllegalStateException("SSH check " + authId + " failed", e.getCause());
        }
        dropLapsed();
        return held.verdict().isDone() ? Optional.of(held.verdict().join()) : Optional.empty();
    }

    /** An administrator lets the held session in. */
    public Check approve(Caller caller, String authId) {
        caller.require(DECIDE_SCOPE);
        return decide(caller, requireUndecided(authId), true, "");
    }

    /** An administrator refuses the held session; final for this check. */
    public Check reject(Caller caller, String authId) {
        caller.require(DECIDE_SCOPE);
        return decide(caller, requireUndecided(authId), false, "");
    }

    /**
     * The person logged in at the OIDC issuer as {@code user} (the server verified the ID token): the session is let
     * in when that is the owner of the source machine, and refused for good otherwise.
     *
     * @return true when the check passed
     */
    public boolean completeByLogin(String authId, User user) {
        Held held = requireUndecided(authId);
        boolean owner = user.id() == held.srcOwnerId();
        decide(Caller.forSession(user), held, owner, owner ? "" : "logged in as " + user.name() + ", but "
                + held.check().srcNode() + " belongs to " + held.check().srcOwner());
        return owner;
    }

    /** The check behind a check page's auth id, while it waits for a decision. */
    public Optional<Check> undecided(String authId) {
        Held held = checks.get(authId);
        return held == null || held.verdict().isDone() || !clock.instant().isBefore(held.check().expires())
                ? Optional.empty() : Optional.of(held.check());
    }

    /** The checks waiting for a decision now, soonest to lapse first. */
    public List<Check> pending(Caller caller) {
        caller.require(READ_SCOPE);
        dropLapsed();
        return checks.values().stream().filter(held -> !held.verdict().isDone()).map(Held::check)
                .sorted(Comparator.comparing(Check::expires)).toList();
    }

    /** Lapses the undecided checks whose time is up (each audited as expired) and forgets decided ones. */
    public void dropLapsed() {
        Instant now = clock.instant();
        for (Held held : checks.values()) {
            if (now.isBefore(held.check().expires())) {
                continue;
            }
            synchronized (held) {
                if (!held.verdict().isDone()) {
                    writer.record(new AuditEntry(0, now, EXPIRY_ACTOR, "", "ssh.check.expire",
                            held.check().authId(), details(held.check(), "")));
                    held.verdict().complete(new Answer.Reject("the SSH check was not completed in time"));
                }
            }
            checks.remove(held.check().authId(), held);
        }
        passed.values().removeIf(at -> at.isBefore(now.minus(Duration.ofDays(400))));
    }

    private Check decide(Caller caller, Held held, boolean accept, String reason) {
        Check check = held.check();
        synchronized (held) {
            if (held.verdict().isDone()) {
                throw MeshException.conflict("SSH check " + check.authId() + " is already decided");
            }
            // Who may decide was checked before the check was looked up (approve, reject) or by the issuer (a login).
            Instant now = writer.change(caller, Writer.Permission.OWN_RULE, (h, at) -> {
                audit.append(h, caller.audited(at, accept ? "ssh.check.approve" : "ssh.check.reject", check.authId(),
                        details(check, reason)));
                return at;
            });
            if (accept) {
                passed.put(new Pair(check.srcNodeId(), check.dstNodeId(), check.localUser()), now);
            }
            held.verdict().complete(accept ? new Answer.Accept() : new Answer.Reject(reason.isEmpty()
                    ? "the SSH check was refused" : "the SSH check was refused: " + reason));
        }
        return check;
    }

    private Held requireUndecided(String authId) {
        dropLapsed();
        Held held = checks.get(authId);
        if (held == null || !clock.instant().isBefore(held.check().expires())) {
            throw MeshException.notFound("no pending SSH check with auth id \"" + authId + "\" (it may have expired; "
                    + "connect again for a new one)");
        }
        return held;
    }

    private static String actor(Node dst) {
        return "node:" + dst.givenName();
    }

    private static Map<String, String> details(Check check, String reason) {
        Map<String, String> details = new java.util.LinkedHashMap<>();
        details.put("srcNode", check.srcNode());
        details.put("srcOwner", check.srcOwner());
        details.put("dstNode", check.dstNode());
        details.put("localUser", check.localUser());
        if (!reason.isEmpty()) {
            details.put("reason", reason);
        }
        return details;
    }
}
