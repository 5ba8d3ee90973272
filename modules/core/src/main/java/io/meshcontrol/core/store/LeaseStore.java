package io.meshcontrol.core.store;

import io.meshcontrol.core.model.LeaseHolding;
import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import org.jdbi.v3.core.Handle;

/**
 * Named leases with their holder, epoch and expiry, all in the database's clock ({@link Dialect#nowMillis()}). Each
 * method is one or two single statements outside any transaction: the row's own lock makes each one atomic, on both
 * engines, so two instances asking at once cannot both get a lease.
 */
public final class LeaseStore {

    private final String now;

    public LeaseStore(Dialect dialect) {
        this.now = dialect.nowMillis();
    }

    /**
     * Takes the lease when it is free, expired or already {@code holder}'s, until {@code ttl} from now by the
     * database's clock; the epoch grows by one when it changes hands.
     *
     * @return the epoch held, or empty when another holder has it
     */
    public OptionalLong acquire(Handle handle, String name, String holder, Duration ttl) {
        handle.createUpdate("INSERT INTO leases (name, holder, epoch, expires_at) VALUES (:name, '', 0, 0) "
                + "ON CONFLICT (name) DO NOTHING").bind("name", name).execute();
        // One statement decides: PostgreSQL rechecks the condition on the row as a concurrent taker left it.
        int taken = handle.createUpdate("UPDATE leases SET epoch = CASE WHEN holder = :holder THEN epoch "
                        + "ELSE epoch + 1 END, holder = :holder, expires_at = " + now + " + :ttl "
                        + "WHERE name = :name AND (holder = :holder OR expires_at < " + now + ")")
                .bind("name", name).bind("holder", holder).bind("ttl", ttl.toMillis()).execute();
        if (taken == 0) {
            return OptionalLong.empty();
        }
        List<Long> epoch = handle.createQuery("SELECT epoch FROM leases WHERE name = :name AND holder = :holder")
                .bind("name", name).bind("holder", holder).mapTo(Long.class).list();
        return epoch.isEmpty() ? OptionalLong.empty() : OptionalLong.of(epoch.getFirst());
    }

    /** Frees the lease at once if {@code holder} has it, so the next taker need not wait for it to expire. */
    public void release(Handle handle, String name, String holder) {
        handle.createUpdate("UPDATE leases SET holder = '', expires_at = 0 WHERE name = :name AND holder = :holder")
                .bind("name", name).bind("holder", holder).execute();
    }

    /** The leases held now (not expired by the database's clock), by name. */
    public List<LeaseHolding> held(Handle handle) {
        return handle.createQuery("SELECT name, holder, epoch, expires_at - " + now + " AS remaining FROM leases "
                        + "WHERE holder <> '' AND expires_at > " + now + " ORDER BY name")
                .map((rs, ctx) -> new LeaseHolding(rs.getString("name"), rs.getString("holder"), rs.getLong("epoch"),
                        Duration.ofMillis(rs.getLong("remaining"))))
                .list();
    }
}
