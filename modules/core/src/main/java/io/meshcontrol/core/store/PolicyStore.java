package io.meshcontrol.core.store;

import java.time.Instant;
import java.util.Optional;
import org.jdbi.v3.core.Handle;

/** The saved policy text. */
public final class PolicyStore {

    public Optional<String> read(Handle handle) {
        return Lookups.one(handle.createQuery("SELECT text FROM policy WHERE singleton = 1").mapTo(String.class));
    }

    public void write(Handle handle, String text, Instant at, String actor) {
        handle.createUpdate("INSERT INTO policy (singleton, text, updated_at, updated_by) VALUES (1, :text, :at, :actor) "
                        + "ON CONFLICT (singleton) DO UPDATE SET text = :text, updated_at = :at, updated_by = :actor")
                .bind("text", text)
                .bind("at", at.toEpochMilli())
                .bind("actor", actor)
                .execute();
    }
}
