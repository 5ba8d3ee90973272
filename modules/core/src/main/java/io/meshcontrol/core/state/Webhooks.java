package io.meshcontrol.core.state;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.RandomText;
import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.event.MeshEvent;
import io.meshcontrol.core.model.PendingDelivery;
import io.meshcontrol.core.model.WebhookDelivery;
import io.meshcontrol.core.model.WebhookEndpoint;
import io.meshcontrol.core.model.WebhookTarget;
import io.meshcontrol.core.store.AuditStore;
import io.meshcontrol.core.store.ChangeLog;
import io.meshcontrol.core.store.WebhookStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jdbi.v3.core.Jdbi;

/**
 * Webhook endpoints (create, read, change subscriptions, rotate the secret, delete, ask for a test event) and their
 * deliveries: the durable outbox, which every change fills in its own transaction ({@link WebhookOutbox}), and the
 * history of the last {@link WebhookStore#HISTORY} finished deliveries per endpoint. The delivery worker (in notify)
 * is the only user of the outbox methods, which take no caller.
 */
public final class Webhooks {

    public static final String WRITE_SCOPE = "webhooks";
    public static final String READ_SCOPE = "webhooks:read";
    static final String SECRET_PREFIX = "svckey-webhook-";

    /** The event types an endpoint subscribes to: the spec's table ({@code test} needs no subscription). */
    public static final List<String> EVENT_TYPES = List.of("nodeCreated", "nodeNeedsApproval", "nodeApproved",
            "nodeKeyExpired", "nodeDeleted", "nodeSuspended", "nodeUnsuspended", "policyUpdate", "userCreated",
            "userNeedsApproval", "userApproved", "userRoleUpdated", "userDeleted", "accessRequestCreated",
            "accessRequestApproved", "accessRequestDenied", "accessRequestRevoked", "sshRecordingFailed");

    /**
     * Names the vendor's clients may send that this server never emits (its categories, tailnet lock and device
     * misconfiguration events); accepted so that a Terraform plan applies. {@code categoryTailnetManagement} hears
     * every event type.
     */
    static final List<String> VENDOR_ONLY_TYPES = List.of("categoryTailnetManagement",
            "categoryDeviceMisconfigurations", "nodeKeyExpiringInOneDay", "userSuspended", "userRestored",
            "subnetIPForwardingNotEnabled", "exitNodeIPForwardingNotEnabled", "nodeSigned", "nodeNeedsSignature");

    /** The body shapes an endpoint may have besides the signed array (""). */
    public static final List<String> PROVIDERS = List.of("slack", "mattermost", "googlechat", "teams", "discord",
            "telegram", "ntfy", "email");

    /** Why an endpoint's URL may not be stored, checked by whoever delivers (the egress guard, the mail settings). */
    @FunctionalInterface
    public interface TargetCheck {
        /** Why {@code url} with {@code provider} ("" for none) is refused, or empty when it may be stored. */
        Optional<String> refusal(String url, String provider);
    }

    /** What a caller sets on a new endpoint. */
    public record Fields(String url, String provider, List<String> subscriptions) {
    }

    /** An endpoint with its secret, shown once (create, rotate). */
    public record Issued(WebhookEndpoint endpoint, String secret) {
    }

    /** How an event becomes the object its receivers get, given by whoever delivers. */
    @FunctionalInterface
    public interface EventRenderer {
        /** The event object of {@code event}, as JSON text. */
        String render(MeshEvent event);
    }

    private final Jdbi jdbi;
    private final Writer writer;
    private final WebhookStore store;
    private final WebhookOutbox outbox;
    private final AuditStore audit;
    private final Snapshots feed;
    private final Clock clock;
    private volatile TargetCheck targets = (url, provider) -> Optional.of("webhook delivery is not running");

    Webhooks(Jdbi jdbi, Writer writer, WebhookStore store, WebhookOutbox outbox, AuditStore audit, Snapshots feed,
            Clock clock) {
        this.jdbi = jdbi;
        this.writer = writer;
        this.store = store;
        this.outbox = outbox;
        this.audit = audit;
        this.feed = feed;
        this.clock = clock;
    }

    /** Set once by the composition root: the check of every URL stored from then on. */
    public void checkTargetsWith(TargetCheck check) {
        this.targets = check;
    }

    /**
     * Set once by whoever delivers: from then on every event an endpoint hears is rendered and written to the outbox
     * in the transaction of its change, and {@code written} is told once such a transaction has committed (it must
     * only take note). It stays set when delivery stops: changes made meanwhile wait in the outbox for the next start.
     */
    public void deliverWith(EventRenderer renderer, Runnable written) {
        outbox.deliverWith(renderer, written);
    }

    public List<WebhookEndpoint> list(Caller caller) {
        caller.require(READ_SCOPE);
        return jdbi.withHandle(store::all);
    }

    public WebhookEndpoint get(Caller caller, String id) {
        caller.require(READ_SCOPE);
        return stored(id).endpoint();
    }

    public Issued create(Caller caller, Fields fields) {
        caller.require(WRITE_SCOPE); // before the URL check, which may resolve names: outside the writer lock
        String provider = fields.provider() == null ? "" : fields.provider().trim();
        if (!provider.isEmpty() && !PROVIDERS.contains(provider)) {
            throw MeshException.invalid("unknown webhook provider \"" + provider + "\"; expected one of "
                    + String.join(", ", PROVIDERS) + ", or none for the signed array");
        }
        String url = fields.url() == null ? "" : fields.url().trim();
        if (url.isEmpty()) {
            throw MeshException.invalid("a webhook needs a URL");
        }
        targets.refusal(url, provider).ifPresent(reason -> {
            throw MeshException.invalid("webhook URL " + url + " is refused: " + reason);
        });
        List<String> subscriptions = subscriptions(fields.subscriptions());
        String secret = newSecret();
        return writer.change(caller, WRITE_SCOPE, (h, now) -> {
            WebhookEndpoint endpoint = new WebhookEndpoint(RandomText.lowerAlphanumeric(16), url, provider,
                    subscriptions, caller.actor(), now, now);
            store.insert(h, endpoint, secret);
            audit.append(h, caller.audited(now, "webhook.create", endpoint.id(), Map.of("url", shown(url),
                    "provider", provider, "subscriptions", String.join(" ", subscriptions))));
            return new Issued(endpoint, secret);
        });
    }

    /** Replaces the endpoint's subscriptions (URL and provider are fixed: make a new endpoint for another). */
    public WebhookEndpoint update(Caller caller, String id, List<String> subscriptions) {
        List<String> wanted = subscriptions(subscriptions);
        return writer.change(caller, WRITE_SCOPE, (h, now) -> {
            WebhookEndpoint old = store.byId(h, id).orElseThrow(() -> unknown(id)).endpoint();
            WebhookEndpoint updated = new WebhookEndpoint(id, old.url(), old.provider(), wanted, old.creator(),
                    old.created(), now);
            store.update(h, updated);
            audit.append(h, caller.audited(now, "webhook.update", id, Map.of("subscriptions",
                    String.join(" ", wanted), "oldSubscriptions", String.join(" ", old.subscriptions()))));
            return updated;
        });
    }

    /** A new secret; the old one stops signing at once (pending deliveries are signed with the new one). */
    public Issued rotate(Caller caller, String id) {
        String secret = newSecret();
        return writer.change(caller, WRITE_SCOPE, (h, now) -> {
            WebhookEndpoint old = store.byId(h, id).orElseThrow(() -> unknown(id)).endpoint();
            store.setSecret(h, id, secret, now);
            audit.append(h, caller.audited(now, "webhook.rotate", id, Map.of()));
            return new Issued(new WebhookEndpoint(id, old.url(), old.provider(), old.subscriptions(), old.creator(),
                    old.created(), now), secret);
        });
    }

    /** Removes the endpoint, its pending deliveries (they are not sent) and its history. */
    public void delete(Caller caller, String id) {
        writer.write(caller, WRITE_SCOPE, (h, now) -> {
            if (!store.delete(h, id)) {
                throw unknown(id);
            }
            audit.append(h, caller.audited(now, "webhook.delete", id, Map.of()));
        });
    }

    /** Asks for a {@code test} event to this endpoint alone. */
    public void test(Caller caller, String id) {
        caller.require(WRITE_SCOPE);
        stored(id);
        feed.publish(new MeshEvent.WebhookTest(clock.instant(), id, caller.actor()));
    }

    /** Finished deliveries, newest first, at most {@link WebhookStore#HISTORY}. */
    public List<WebhookDelivery> deliveries(Caller caller, String id) {
        caller.require(READ_SCOPE);
        return jdbi.withHandle(h -> {
            store.byId(h, id).orElseThrow(() -> unknown(id));
            return store.deliveries(h, id);
        });
    }

    // The delivery worker's side: no caller, the worker acts for the server.

    /** The endpoint with its current secret, unless it was deleted. */
    public Optional<WebhookTarget> target(String id) {
        return jdbi.withHandle(h -> store.byId(h, id));
    }

    /**
     * Claims up to {@code limit} deliveries due now that no worker is attempting, for {@code claimFor} (the
     * database's clock): until it finishes, is rescheduled or the claim runs out, no other worker, of this instance or
     * another, picks them. See {@link WebhookStore#claimDue}.
     *
     * @param claim a text no other claim has, starting with the worker's own prefix ({@link #releaseClaims})
     */
    public List<PendingDelivery> claimDue(int limit, String claim, Duration claimFor) {
        Instant now = clock.instant();
        return jdbi.withHandle(h -> store.claimDue(h, now, limit, claim, claimFor));
    }

    /**
     * A stopping worker's claims end (those starting with {@code prefix}; "" for every claim): what it did not finish
     * may be attempted by another at once.
     */
    public void releaseClaims(String prefix) {
        jdbi.useHandle(h -> store.releaseClaims(h, prefix));
    }

    /** Deliveries of the endpoint still pending, oldest first. */
    public List<PendingDelivery> pending(String endpointId) {
        return jdbi.withHandle(h -> store.pending(h, endpointId));
    }

    public Optional<Instant> nextDue() {
        return jdbi.withHandle(store::nextDue);
    }

    /**
     * Records a failed attempt: the delivery is due again at {@code next}, unclaimed. False when it was no longer
     * pending as claimed (see {@link #finish}).
     */
    public boolean retryAt(PendingDelivery pending, int attempts, Instant next) {
        return jdbi.inTransaction(h -> store.reschedule(h, pending, attempts, next));
    }

    /**
     * Moves the delivery to its endpoint's history; empty when it was no longer pending as {@code pending} was
     * claimed (deleted with its endpoint, or claimed by another worker once this claim ran out).
     */
    public Optional<WebhookDelivery> finish(PendingDelivery pending, int status, String error, int attempts,
                                            Duration duration) {
        Instant now = clock.instant();
        Optional<WebhookDelivery> finished = jdbi.inTransaction(h -> {
            Optional<WebhookDelivery> done = store.finish(h, pending, status, error, attempts, duration, now);
            done.ifPresent(delivery -> feed.logChange(h, ChangeLog.Kind.DELIVERY, pending.endpointId()));
            return done;
        });
        finished.ifPresent(delivery -> feed.deliveryFinished(pending.endpointId()));
        return finished;
    }

    private WebhookTarget stored(String id) {
        return jdbi.withHandle(h -> store.byId(h, id)).orElseThrow(() -> unknown(id));
    }

    private static List<String> subscriptions(List<String> wanted) {
        LinkedHashSet<String> types = new LinkedHashSet<>();
        for (String type : wanted == null ? List.<String>of() : wanted) {
            if (!EVENT_TYPES.contains(type) && !VENDOR_ONLY_TYPES.contains(type)) {
                throw MeshException.invalid("unknown webhook event type \"" + type + "\"; expected one of "
                        + String.join(", ", EVENT_TYPES));
            }
            types.add(type);
        }
        return List.copyOf(types);
    }

    /** The URL as logs and the audit show it: without user info or query (a bot token, a chat id). */
    static String shown(String url) {
        int query = url.indexOf('?');
        String base = query < 0 ? url : url.substring(0, query);
        int scheme = base.indexOf("://");
        int at = base.indexOf('@');
        return scheme > 0 && at > scheme ? base.substring(0, scheme + 3) + base.substring(at + 1) : base;
    }

    private static String newSecret() {
        return SECRET_PREFIX + RandomText.alphanumeric(32);
    }

    private static MeshException unknown(String id) {
        return MeshException.notFound("no webhook endpoint " + id);
    }
}
