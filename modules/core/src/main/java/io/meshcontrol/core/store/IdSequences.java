package io.meshcontrol.core.store;

import org.jdbi.v3.core.Handle;

/** Hands out numeric ids that are never reused, inside the caller's transaction. */
final class IdSequences {

    private IdSequences() {
    }

    static long next(Handle handle, String sequence) {
        int updated = handle.createUpdate("UPDATE id_sequences SET next_value = next_value + 1 WHERE name = :name")
                .bind("name", sequence)
                .execute();
        if (updated != 1) {
            throw new IllegalStateException("no id sequence named " + sequence);
        }
        return handle.createQuery("SELECT next_value - 1 FROM id_sequences WHERE name = :name")
                .bind("name", sequence)
                .mapTo(Long.class)
                .one();
    }

    /** Makes sure {@code sequence} hands out only ids above {@code used} (rows written with ids of their own). */
    static void reserveThrough(Handle handle, String sequence, long used) {
        handle.createUpdate("UPDATE id_sequences SET next_value = CASE WHEN next_value > :after THEN next_value "
                        + "ELSE :after END WHERE name = :name")
                .bind("after", used + 1)
                .bind("name", sequence)
                .execute();
    }
}
