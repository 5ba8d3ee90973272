package io.meshcontrol.core.state;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.event.EventBus;
import io.meshcontrol.core.event.MeshEvent;
import io.meshcontrol.core.policy.Policy;
import io.meshcontrol.core.policy.PolicyException;
import io.meshcontrol.core.routes.PolicyAutoApprovers;
import io.meshcontrol.core.store.PolicyStore;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Instant;
import java.util.HexFormat;
import org.jdbi.v3.core.Jdbi;

/**
 * The policy in force: read once, replaced by {@link #set}, which validates first so that a rejected policy
 * changes nothing. The ETag is a hash of the saved text, for conditional writes.
 */
public final class Policies {

    public static final String WRITE_SCOPE = "policy_file";
    public static final String READ_SCOPE = "policy_file:read";

    /** The policy with its ETag (quoted, as HTTP writes it). */
    public record Current(Policy policy, String etag) {
    }

    private final Jdbi jdbi;
    private final PolicyStore store;
    private final EventBus events;
    private final Clock clock;
    private volatile Current current;

    Policies(Jdbi jdbi, PolicyStore store, EventBus events, Clock clock) {
        this.jdbi = jdbi;
        this.store = store;
        this.events = events;
        this.clock = clock;
        Policy policy = jdbi.withHandle(store::read).map(Policy::parse).orElse(Policy.EMPTY);
        this.current = new Current(policy, etag(policy.text()));
    }

    /** The policy in force, for the rules that consult it. */
    public Policy policy() {
        return current.policy();
    }

    public Current get(Caller caller) {
        caller.require(READ_SCOPE);
        return current;
    }

    /**
     * Saves {@code text} after validating it.
     *
     * @param ifMatch the ETag the caller last read, {@code *} for any, or null for an unconditional write
     */
    public synchronized Current set(Caller caller, String text, String ifMatch) {
        caller.require(WRITE_SCOPE);
        if (ifMatch != null && !ifMatch.trim().equals("*") && !ifMatch.trim().equals(current.etag())) {
            throw new MeshException(MeshException.Reason.PRECONDITION_FAILED,
                    "the policy changed since it was read (ETag " + current.etag() + "); read it again and retry");
        }
        Policy policy;
        try {
            policy = Policy.parse(text);
            PolicyAutoApprovers.from(policy); // checked apart until the policy model carries autoApprovers
        } catch (PolicyException e) {
            throw MeshException.invalid(e.getMessage());
        }
        Instant now = clock.instant();
        jdbi.useTransaction(h -> store.write(h, text, now, caller.actor()));
        current = new Current(policy, etag(text));
        events.publish(new MeshEvent.PolicyUpdated(now, caller.actor()));
        return current;
    }

    static String etag(String text) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return "\"" + HexFormat.of().formatHex(digest, 0, 16) + "\"";
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every JDK", e);
        }
    }
}
