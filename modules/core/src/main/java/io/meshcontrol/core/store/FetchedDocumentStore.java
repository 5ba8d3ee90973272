package io.meshcontrol.core.store;

import io.meshcontrol.core.model.FetchedDocument;
import java.time.Instant;
import java.util.Optional;
import org.jdbi.v3.core.Handle;

/** The {@code fetched_documents} table: one row per document, replaced whole at each fetch. */
public final class FetchedDocumentStore {

    public Optional<FetchedDocument> read(Handle handle, String name) {
        return Lookups.one(handle.createQuery("SELECT name, body, fetched_at FROM fetched_documents WHERE name = :name")
                .bind("name", name)
                .map((rows, context) -> new FetchedDocument(rows.getString("name"), rows.getString("body"),
                        Instant.ofEpochMilli(rows.getLong("fetched_at")))));
    }

    public void write(Handle handle, FetchedDocument document) {
        handle.createUpdate("INSERT INTO fetched_documents (name, body, fetched_at) VALUES (:name, :body, :at) "
                        + "ON CONFLICT (name) DO UPDATE SET body = :body, fetched_at = :at")
                .bind("name", document.name())
                .bind("body", document.body())
                .bind("at", document.fetchedAt().toEpochMilli())
                .execute();
    }

    /** Forgets a document (an answer to a finished ACME challenge). */
    public void delete(Handle handle, String name) {
        handle.createUpdate("DELETE FROM fetched_documents WHERE name = :name").bind("name", name).execute();
    }
}
