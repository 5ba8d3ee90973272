package io.meshcontrol.core.store;

import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Handle;

/**
 * The tailnet lock's tables: the AUM log (each AUM's bytes as its signers encoded them) and the one row saying whether
 * lock was disabled, with the secret that did it. The node-key signatures live on the nodes' rows ({@link NodeStore}).
 */
public final class TailnetLockStore {

    /** The log's AUMs from the genesis to the head, as encoded. */
    public List<byte[]> aums(Handle handle) {
        return handle.createQuery("SELECT aum FROM tailnet_lock_aums ORDER BY position")
                .map((rs, ctx) -> Base64.getDecoder().decode(rs.getString(1))).list();
    }

    /** Appends an AUM at {@code position} (the genesis is 0). */
    public void append(Handle handle, int position, String hash, byte[] aum, Instant at) {
        CommitListener.requireTransaction(handle);
        handle.createUpdate("INSERT INTO tailnet_lock_aums (position, hash, aum, added_at) "
                        + "VALUES (:position, :hash, :aum, :at)")
                .bind("position", position).bind("hash", hash)
                .bind("aum", Base64.getEncoder().encodeToString(aum)).bind("at", at.toEpochMilli()).execute();
    }

    /** Empties the log and forgets any disablement: a new lock starts. */
    public void clear(Handle handle) {
        CommitListener.requireTransaction(handle);
        handle.createUpdate("DELETE FROM tailnet_lock_aums").execute();
        handle.createUpdate("DELETE FROM tailnet_lock").execute();
    }

    /** The secret that disabled lock (hex), when it was disabled. */
    public Optional<String> disablementSecret(Handle handle) {
        return handle.createQuery("SELECT disablement_secret FROM tailnet_lock WHERE id = 1")
                .map((rs, ctx) -> rs.getString(1)).findFirst().filter(s -> s != null);
    }

    /** Records that {@code secretHex} disabled lock. */
    public void disabled(Handle handle, String secretHex, Instant at) {
        CommitListener.requireTransaction(handle);
        handle.createUpdate("DELETE FROM tailnet_lock").execute();
        handle.createUpdate("INSERT INTO tailnet_lock (id, disablement_secret, changed_at) VALUES (1, :secret, :at)")
                .bind("secret", secretHex).bind("at", at.toEpochMilli()).execute();
    }
}
