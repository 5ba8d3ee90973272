package io.meshcontrol.core.store;

import io.meshcontrol.core.model.PendingDelivery;
import io.meshcontrol.core.model.WebhookDelivery;
import io.meshcontrol.core.model.WebhookEndpoint;
import io.meshcontrol.core.model.WebhookTarget;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.Update;

/** Webhook endpoints with their secrets, the delivery outbox and the delivery history. */
public final class WebhookStore {

    /** How many finished deliveries an endpoint keeps (the spec's limit). */
    public static final int HISTORY = 100;

    private static final String ENDPOINT_COLUMNS =
            "id, url, provider, subscriptions, creator, created_at, updated_at, secret";
    private static final String PENDING_COLUMNS =
            "id, endpoint_id, events, event_types, attempts, next_attempt_at, created_at, claim";

    /** The database's clock, which claims run out by. */
    private final String now;

    public WebhookStore(Dialect dialect) {
        this.now = dialect.nowMillis();
    }

    public List<WebhookEndpoint> all(Handle handle) {
        return handle.createQuery("SELECT " + ENDPOINT_COLUMNS + " FROM webhook_endpoints ORDER BY created_at, id")
                .map((rs, ctx) -> endpoint(rs)).list();
    }

    public Optional<WebhookTarget> byId(Handle handle, String id) {
        return Lookups.one(handle.createQuery("SELECT " + ENDPOINT_COLUMNS + " FROM webhook_endpoints WHERE id = :id")
                .bind("id", id)
                .map((rs, ctx) -> new WebhookTarget(endpoint(rs), rs.getString("secret"))));
    }

    public void insert(Handle handle, WebhookEndpoint e, String secret) {
        handle.createUpdate("INSERT INTO webhook_endpoints (" + ENDPOINT_COLUMNS + ") VALUES (:id, :url, :provider, "
                        + ":subscriptions, :creator, :created, :updated, :secret)")
                .bind("id", e.id())
                .bind("url", e.url())
                .bind("provider", e.provider())
                .bind("subscriptions", TextLists.join(e.subscriptions()))
                .bind("creator", e.creator())
                .bind("created", e.created().toEpochMilli())
                .bind("updated", e.lastModified().toEpochMilli())
                .bind("secret", secret)
                .execute();
    }

    public void update(Handle handle, WebhookEndpoint e) {
        handle.createUpdate("UPDATE webhook_endpoints SET subscriptions = :subscriptions, updated_at = :updated "
                        + "WHERE id = :id")
                .bind("id", e.id())
                .bind("subscriptions", TextLists.join(e.subscriptions()))
                .bind("updated", e.lastModified().toEpochMilli())
                .execute();
    }

    public void setSecret(Handle handle, String id, String secret, Instant at) {
        handle.createUpdate("UPDATE webhook_endpoints SET secret = :secret, updated_at = :at WHERE id = :id")
                .bind("id", id).bind("secret", secret).bind("at", at.toEpochMilli()).execute();
    }

    /** Removes the endpoint with its pending and finished deliveries. */
    public boolean delete(Handle handle, String id) {
        return handle.createUpdate("DELETE FROM webhook_endpoints WHERE id = :id").bind("id", id).execute() > 0;
    }

    public PendingDelivery enqueue(Handle handle, String endpointId, String events, List<String> types, Instant at) {
        long id = IdSequences.next(handle, "webhook_outbox");
        handle.createUpdate("INSERT INTO webhook_outbox (id, endpoint_id, events, event_types, attempts, "
                        + "next_attempt_at, created_at) VALUES (:id, :endpoint, :events, :types, 0, :at, :at)")
                .bind("id", id)
                .bind("endpoint", endpointId)
                .bind("events", events)
                .bind("types", TextLists.join(types))
                .bind("at", at.toEpochMilli())
                .execute();
        return new PendingDelivery(id, endpointId, events, types, 0, at, at, null);
    }

    /**
     * Claims up to {@code limit} deliveries due at {@code at} that nobody has claimed, or whose claim ran out, for
     * {@code claimFor} by the database's clock, oldest first. The claim is set in the statement that picks the rows:
     * two workers asking at once never get the same delivery (PostgreSQL rechecks the unclaimed condition on a row a
     * concurrent claimer changed). Nothing is written when nothing is due.
     *
     * @param claim a text no other claim has: the rows claimed are those that carry it afterwards
     */
    public List<PendingDelivery> claimDue(Handle handle, Instant at, int limit, String claim, Duration claimFor) {
        String unclaimed = "(claimed_until IS NULL OR claimed_until < " + now + ")";
        boolean any = handle.createQuery("SELECT COUNT(*) FROM webhook_outbox WHERE next_attempt_at <= :at AND "
                        + unclaimed).bind("at", at.toEpochMilli()).mapTo(Integer.class).one() > 0;
        if (!any) {
            return List.of();
        }
        handle.createUpdate("UPDATE webhook_outbox SET claim = :claim, claimed_until = " + now + " + :claimFor "
                        + "WHERE id IN (SELECT id FROM webhook_outbox WHERE next_attempt_at <= :at AND " + unclaimed
                        + " ORDER BY next_attempt_at, id LIMIT :limit) AND " + unclaimed)
                .bind("claim", claim)
                .bind("claimFor", claimFor.toMillis())
                .bind("at", at.toEpochMilli())
                .bind("limit", limit)
                .execute();
        return handle.createQuery("SELECT " + PENDING_COLUMNS + " FROM webhook_outbox WHERE claim = :claim "
                        + "ORDER BY next_attempt_at, id")
                .bind("claim", claim)
                .map((rs, ctx) -> pending(rs)).list();
    }

    /** Ends the claims whose text starts with {@code prefix} (a stopping worker's): others may attempt them now. */
    public void releaseClaims(Handle handle, String prefix) {
        handle.createUpdate("UPDATE webhook_outbox SET claim = NULL, claimed_until = NULL WHERE claim LIKE :prefix")
                .bind("prefix", prefix + "%").execute();
    }

    public List<PendingDelivery> pending(Handle handle, String endpointId) {
        return handle.createQuery("SELECT " + PENDING_COLUMNS + " FROM webhook_outbox WHERE endpoint_id = :endpoint "
                        + "ORDER BY id")
                .bind("endpoint", endpointId)
                .map((rs, ctx) -> pending(rs)).list();
    }

    /** When the next pending delivery is due, if any is pending. */
    public Optional<Instant> nextDue(Handle handle) {
        return handle.createQuery("SELECT MIN(next_attempt_at) AS due FROM webhook_outbox")
                .map((rs, ctx) -> Optional.ofNullable(Times.instant(rs, "due"))).one();
    }

    /**
     * Records a failed attempt and ends its claim: the delivery is due again at {@code next}. Nothing happens when the
     * delivery is no longer pending as {@code pending} was claimed (finished, or claimed by another worker after its
     * claim ran out).
     */
    public boolean reschedule(Handle handle, PendingDelivery pending, int attempts, Instant next) {
        return bindClaim(handle.createUpdate("UPDATE webhook_outbox SET attempts = :attempts, next_attempt_at = :next, "
                        + "claim = NULL, claimed_until = NULL WHERE id = :id AND attempts = :was AND "
                        + claimed(pending)), pending)
                .bind("id", pending.id()).bind("attempts", attempts).bind("was", pending.attempts())
                .bind("next", next.toEpochMilli()).execute() == 1;
    }

    /** The condition that the row is still claimed as {@code pending} was read (or unclaimed, as it was). */
    private static String claimed(PendingDelivery pending) {
        return pending.claim() == null ? "claim IS NULL" : "claim = :claim";
    }

    private static Update bindClaim(Update update, PendingDelivery pending) {
        return pending.claim() == null ? update : update.bind("claim", pending.claim());
    }

    /**
     * Moves a pending delivery to the history, which keeps the newest {@link #HISTORY} of its endpoint. Nothing
     * happens when the delivery is no longer pending as {@code pending} was claimed (its endpoint was deleted
     * meanwhile, or another worker claimed it after this claim ran out).
     */
    public Optional<WebhookDelivery> finish(Handle handle, PendingDelivery pending, int status, String error,
                                            int attempts, Duration duration, Instant at) {
        if (bindClaim(handle.createUpdate("DELETE FROM webhook_outbox WHERE id = :id AND " + claimed(pending)), pending)
                .bind("id", pending.id()).execute() == 0) {
            return Optional.empty();
        }
        long id = IdSequences.next(handle, "webhook_deliveries");
        handle.createUpdate("INSERT INTO webhook_deliveries (id, endpoint_id, event_types, status, error, attempts, "
                        + "duration_ms, finished_at) VALUES (:id, :endpoint, :types, :status, :error, :attempts, "
                        + ":duration, :at)")
                .bind("id", id)
                .bind("endpoint", pending.endpointId())
                .bind("types", TextLists.join(pending.eventTypes()))
                .bind("status", status)
                .bind("error", error)
                .bind("attempts", attempts)
                .bind("duration", duration.toMillis())
                .bind("at", at.toEpochMilli())
                .execute();
        handle.createUpdate("DELETE FROM webhook_deliveries WHERE endpoint_id = :endpoint AND id NOT IN "
                        + "(SELECT id FROM webhook_deliveries WHERE endpoint_id = :endpoint ORDER BY id DESC "
                        + "LIMIT :keep)")
                .bind("endpoint", pending.endpointId())
                .bind("keep", HISTORY)
                .execute();
        return Optional.of(new WebhookDelivery(id, pending.endpointId(), pending.eventTypes(), status, error, attempts,
                duration, at));
    }

    /** The endpoint's finished deliveries, newest first. */
    public List<WebhookDelivery> deliveries(Handle handle, String endpointId) {
        return handle.createQuery("SELECT id, endpoint_id, event_types, status, error, attempts, duration_ms, "
                        + "finished_at FROM webhook_deliveries WHERE endpoint_id = :endpoint ORDER BY id DESC "
                        + "LIMIT :keep")
                .bind("endpoint", endpointId)
                .bind("keep", HISTORY)
                .map((rs, ctx) -> new WebhookDelivery(rs.getLong("id"), rs.getString("endpoint_id"),
                        TextLists.split(rs.getString("event_types")), rs.getInt("status"), rs.getString("error"),
                        rs.getInt("attempts"), Duration.ofMillis(rs.getLong("duration_ms")),
                        Times.instant(rs, "finished_at")))
                .list();
    }

    private static WebhookEndpoint endpoint(ResultSet rs) throws SQLException {
        return new WebhookEndpoint(rs.getString("id"), rs.getString("url"), rs.getString("provider"),
                TextLists.split(rs.getString("subscriptions")), rs.getString("creator"),
                Times.instant(rs, "created_at"), Times.instant(rs, "updated_at"));
    }

    private static PendingDelivery pending(ResultSet rs) throws SQLException {
        return new PendingDelivery(rs.getLong("id"), rs.getString("endpoint_id"), rs.getString("events"),
                TextLists.split(rs.getString("event_types")), rs.getInt("attempts"),
                Times.instant(rs, "next_attempt_at"), Times.instant(rs, "created_at"), rs.getString("claim"));
    }
}
