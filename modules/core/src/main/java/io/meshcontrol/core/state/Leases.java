package io.meshcontrol.core.state;

import io.meshcontrol.core.model.LeaseHolding;
import io.meshcontrol.core.store.Dialect;
import io.meshcontrol.core.store.LeaseStore;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import org.jdbi.v3.core.Jdbi;

/**
 * The leases of singleton work (docs/high-availability.md, "Singleton work and leases"). On PostgreSQL, where
 * several instances may serve one network, a lease is held in the database and moves to another instance within
 * {@link #TTL} and a second of its holder's death, within a second of a clean stop. On SQLite the process is alone
 * on its database: every lease is held from the start, and nothing is written for it.
 */
public final class Leases {

    /** How long a take or renewal holds a lease: a dead holder's work moves within this and a third of it. */
    public static final Duration TTL = Duration.ofSeconds(10);

    private final Jdbi jdbi;
    private final LeaseStore store;
    private final boolean shared;
    /** The leases of this process on SQLite, which are what {@link #holdings()} shows there. */
    private final Map<String, Lease> local = new ConcurrentHashMap<>();

    Leases(Jdbi jdbi, Dialect dialect) {
        this.jdbi = jdbi;
        this.store = new LeaseStore(dialect);
        this.shared = dialect == Dialect.POSTGRES;
    }

    /** True when other instances may share the database (PostgreSQL): then work and its results cross instances. */
    public boolean shared() {
        return shared;
    }

    /** Asks for the lease {@code name} as {@code holder} (this instance), held for {@link #TTL} per renewal. */
    public Lease hold(String name, String holder) {
        return hold(name, holder, TTL);
    }

    /** Like {@link #hold(String, String)} with another time to live: for tests that wait for a takeover. */
    public Lease hold(String name, String holder, Duration ttl) {
        if (!shared) {
            Lease lease = Lease.always(name, holder);
            local.put(name, lease);
            return lease;
        }
        return Lease.taken(name, holder, ttl, new Lease.Taker() {
            @Override
            public OptionalLong take(String lease, String by, Duration time) {
                return jdbi.withHandle(h -> store.acquire(h, lease, by, time));
            }

            @Override
            public void release(String lease, String by) {
                jdbi.useHandle(h -> store.release(h, lease, by));
            }
        });
    }

    /** Which instance holds which lease now, by name (as the database says; on SQLite, this process's). */
    public List<LeaseHolding> holdings() {
        if (!shared) {
            return local.values().stream().filter(Lease::held).sorted(Comparator.comparing(Lease::name))
                    .map(lease -> new LeaseHolding(lease.name(), lease.holder(), lease.epoch(), Duration.ZERO))
                    .toList();
        }
        return jdbi.withHandle(store::held);
    }
}
