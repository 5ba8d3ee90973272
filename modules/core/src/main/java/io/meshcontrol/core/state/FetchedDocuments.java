package io.meshcontrol.core.state;

import io.meshcontrol.core.model.FetchedDocument;
import io.meshcontrol.core.store.ChangeLog;
import io.meshcontrol.core.store.FetchedDocumentStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import org.jdbi.v3.core.Jdbi;

/**
 * What the server fetched from outside for the whole network, kept in the database: the DERP maps at map URLs, the
 * latest client release, the ACME account, certificate and challenge answers. The instance that does the fetching
 * (on PostgreSQL the holder of the singleton lease) saves what it got; every other instance is told through the change
 * log ({@link ChangeLog.Kind#FETCHED}) and uses the same copy, and a restart starts from the last one, offline too.
 * <p>
 * These are not administrative changes: nobody asked for them, so they write no audit entry, and a fetch that finds
 * the document unchanged only dates the stored copy and tells nobody.
 */
public final class FetchedDocuments {

    /** Told of a document another instance saved or deleted (empty): under the writer lock, so it only hands on. */
    @FunctionalInterface
    public interface Follower extends BiConsumer<String, Optional<FetchedDocument>> {
    }

    private final Jdbi jdbi;
    private final FetchedDocumentStore store;
    private final Snapshots snapshots;
    private final Clock clock;
    private final Map<String, Follower> followers = new ConcurrentHashMap<>();
    /** This instance's last failed attempt per document. */
    private final Map<String, Instant> failures = new ConcurrentHashMap<>();

    FetchedDocuments(Jdbi jdbi, FetchedDocumentStore store, Snapshots snapshots, Clock clock) {
        this.jdbi = jdbi;
        this.store = store;
        this.snapshots = snapshots;
        this.clock = clock;
    }

    /** The stored copy of {@code name}. */
    public Optional<FetchedDocument> read(String name) {
        return jdbi.withHandle(h -> store.read(h, name));
    }

    /**
     * Whether {@code name} is due to be fetched again: the stored copy was fetched {@code interval} ago or longer (by
     * whichever instance), or none is stored, and this instance's last failed attempt too.
     */
    public boolean due(String name, Duration interval) {
        Instant now = clock.instant();
        Instant failed = failures.get(name);
        if (failed != null && failed.plus(interval).isAfter(now)) {
            return false;
        }
        return read(name).map(d -> !d.fetchedAt().plus(interval).isAfter(now)).orElse(true);
    }

    /** Notes an attempt to fetch {@code name} that failed: {@link #due} waits a whole interval before the next. */
    public void failed(String name) {
        failures.put(name, clock.instant());
    }

    /**
     * Saves what was just fetched; another instance's follower for its name is told when the body changed.
     *
     * @return whether the body differs from the stored one
     */
    public boolean save(String name, String body) {
        failures.remove(name);
        FetchedDocument document = new FetchedDocument(name, body, clock.instant());
        return jdbi.inTransaction(h -> {
            boolean changed = store.read(h, name).map(stored -> !stored.body().equals(body)).orElse(true);
            store.write(h, document);
            if (changed) {
                snapshots.logChange(h, ChangeLog.Kind.FETCHED, name);
            }
            return changed;
        });
    }

    /** Forgets {@code name}; the other instances are told. */
    public void delete(String name) {
        jdbi.useTransaction(h -> {
            store.delete(h, name);
            snapshots.logChange(h, ChangeLog.Kind.FETCHED, name);
        });
    }

    /**
     * Set by the part of the server that uses the documents whose names start with {@code prefix}: told each time
     * another instance saved or deleted one of them.
     */
    public void onFetchedElsewhere(String prefix, Follower follower) {
        followers.put(prefix, follower);
    }

    /** A {@link ChangeLog.Kind#FETCHED} row of another instance: the document as it is stored now. */
    void follow(org.jdbi.v3.core.Handle handle, String name) {
        Optional<FetchedDocument> now = store.read(handle, name);
        followers.forEach((prefix, follower) -> {
            if (name.startsWith(prefix)) {
                follower.accept(name, now);
            }
        });
    }
}
