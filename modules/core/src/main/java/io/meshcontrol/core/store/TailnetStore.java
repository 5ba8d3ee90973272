package io.meshcontrol.core.store;

import io.meshcontrol.core.RandomText;
import java.time.Instant;
import org.jdbi.v3.core.Jdbi;

/** The network's identity: generated once at first start, never changed afterwards. */
public final class TailnetStore {

    private final Jdbi jdbi;

    public TailnetStore(Jdbi jdbi) {
        this.jdbi = jdbi;
    }

    /** The network ID, creating it on first call: vendor shape, short alphanumeric ending in {@code CNTRL}. */
    public String ensureTailnetId(Instant now) {
        return jdbi.inTransaction(handle -> {
            handle.createUpdate("INSERT INTO tailnet (singleton, tailnet_id, created_at) VALUES (1, :id, :at) "
                            + "ON CONFLICT (singleton) DO NOTHING")
                    .bind("id", "T" + RandomText.alphanumeric(8) + "CNTRL")
                    .bind("at", now.toEpochMilli())
                    .execute();
            return handle.createQuery("SELECT tailnet_id FROM tailnet WHERE singleton = 1").mapTo(String.class).one();
        });
    }
}
