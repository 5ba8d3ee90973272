package io.meshcontrol.core.store;

import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jdbi.v3.core.Handle;

/**
 * The {@code instances} and {@code node_streams} tables (PostgreSQL only): the server instances sharing the database,
 * each kept alive by its heartbeat, and which of them holds a map stream of which node. Times are the database's
 * ({@code now()}), so the instances' own clocks need not agree. An instance whose heartbeat is older than the
 * staleness limit counts as gone: its streams count for nothing, and its row may be deleted by anyone (its streams go
 * with it).
 */
public final class InstanceStore {

    /** Registers instance {@code id} as running on {@code host}, alive as of now. */
    public void register(Handle handle, String id, String host) {
        handle.createUpdate("INSERT INTO instances (id, host) VALUES (:id, :host) ON CONFLICT (id) DO UPDATE "
                + "SET heartbeat_at = now()").bind("id", id).bind("host", host).execute();
    }

    /** @return false when the instance's row is gone (deleted as stale by another instance) */
    public boolean heartbeat(Handle handle, String id) {
        return handle.createUpdate("UPDATE instances SET heartbeat_at = now() WHERE id = :id").bind("id", id)
                .execute() == 1;
    }

    /** Removes instance {@code id} (a clean stop), with its streams. */
    public void remove(Handle handle, String id) {
        handle.createUpdate("DELETE FROM instances WHERE id = :id").bind("id", id).execute();
    }

    /** Deletes the instances silent for longer than {@code age}, with their streams; idempotent. */
    public int removeSilent(Handle handle, Duration age) {
        return handle.createUpdate("DELETE FROM instances WHERE heartbeat_at < now() - make_interval(secs => :s)")
                .bind("s", seconds(age)).execute();
    }

    /** The instances whose heartbeat is at most {@code stale} old. */
    public Set<String> alive(Handle handle, Duration stale) {
        return new HashSet<>(handle.createQuery("SELECT id FROM instances "
                        + "WHERE heartbeat_at >= now() - make_interval(secs => :s)")
                .bind("s", seconds(stale)).mapTo(String.class).list());
    }

    public void streamOpened(Handle handle, String instanceId, long nodeId) {
        handle.createUpdate("INSERT INTO node_streams (instance_id, node_id) VALUES (:i, :n) ON CONFLICT DO NOTHING")
                .bind("i", instanceId).bind("n", nodeId).execute();
    }

    public void streamClosed(Handle handle, String instanceId, long nodeId) {
        handle.createUpdate("DELETE FROM node_streams WHERE instance_id = :i AND node_id = :n")
                .bind("i", instanceId).bind("n", nodeId).execute();
    }

    /** The instances other than {@code except}, alive by {@code stale}, that hold a stream of node {@code nodeId}. */
    public Set<String> streamsOf(Handle handle, long nodeId, String except, Duration stale) {
        return new HashSet<>(handle.createQuery("SELECT s.instance_id FROM node_streams s JOIN instances i "
                        + "ON i.id = s.instance_id WHERE s.node_id = :n AND s.instance_id <> :except "
                        + "AND i.heartbeat_at >= now() - make_interval(secs => :s)")
                .bind("n", nodeId).bind("except", except).bind("s", seconds(stale)).mapTo(String.class).list());
    }

    /** Every node with a stream on an instance other than {@code except} alive by {@code stale}: node to instances. */
    public Map<Long, Set<String>> streams(Handle handle, String except, Duration stale) {
        Map<Long, Set<String>> streams = new HashMap<>();
        List<Map.Entry<Long, String>> rows = handle.createQuery("SELECT s.node_id, s.instance_id FROM node_streams s "
                        + "JOIN instances i ON i.id = s.instance_id WHERE s.instance_id <> :except "
                        + "AND i.heartbeat_at >= now() - make_interval(secs => :s)")
                .bind("except", except).bind("s", seconds(stale))
                .map((rs, ctx) -> Map.entry(rs.getLong(1), rs.getString(2))).list();
        rows.forEach(row -> streams.computeIfAbsent(row.getKey(), k -> new HashSet<>()).add(row.getValue()));
        return streams;
    }

    private static double seconds(Duration age) {
        return (double) age.toMillis() / 1000;
    }
}
