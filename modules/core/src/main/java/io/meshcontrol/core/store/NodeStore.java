package io.meshcontrol.core.store;

import io.meshcontrol.core.key.DiscoPublicKey;
import io.meshcontrol.core.key.MachinePublicKey;
import io.meshcontrol.core.key.NodePublicKey;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.net.IpPrefix;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.StatementContext;

/** Nodes table. Keys are stored in their text forms. */
public final class NodeStore {

    private volatile CommitListener listener = CommitListener.NOBODY;

    private volatile ChangeLog log = ChangeLog.OFF;

    /** Sets the one listener (the change feed). */
    public void onCommit(CommitListener commitListener) {
        this.listener = commitListener;
    }

    /** Every row written or deleted is also appended to {@code changeLog}, in its transaction (other instances). */
    public void logChangesTo(ChangeLog changeLog) {
        this.log = changeLog;
    }

    private static final String COLUMNS = "id, stable_id, machine_key, node_key, disco_key, hostname, given_name, user_id, "
            + "tags, ipv4, ipv6, hostinfo, endpoints, authorized, ephemeral, pre_auth_key_id, register_method, created_at, "
            + "last_seen, key_expiry, advertised_routes, approved_routes, suspended, global_exit_priority, "
            + "key_expiry_disabled";

    public long nextId(Handle handle) {
        return IdSequences.next(handle, "nodes");
    }

    /** For nodes imported with the ids they had elsewhere: later nodes get higher ids. */
    public void reserveIdsThrough(Handle handle, long used) {
        IdSequences.reserveThrough(handle, "nodes", used);
    }

    public void insert(Handle handle, Node node) {
        CommitListener.requireTransaction(handle);
        handle.createUpdate("INSERT INTO nodes (" + COLUMNS + ") VALUES (:id, :stableId, :machineKey, :nodeKey, :discoKey, "
                        + ":hostname, :givenName, :userId, :tags, :ipv4, :ipv6, :hostinfo, :endpoints, :authorized, "
                        + ":ephemeral, :preAuthKeyId, :registerMethod, :createdAt, :lastSeen, :keyExpiry, :advertisedRoutes, "
                        + ":approvedRoutes, :suspended, :globalExitPriority, :keyExpiryDisabled)")
                .bindMap(values(node))
                .execute();
        log.append(handle, ChangeLog.Kind.NODE, node.id());
        handle.afterCommit(() -> listener.nodeWritten(node));
    }

    /** Writes every mutable column of the node; a node that is gone stays gone. */
    public void update(Handle handle, Node node) {
        CommitListener.requireTransaction(handle);
        if (handle.createUpdate("UPDATE nodes SET machine_key = :machineKey, node_key = :nodeKey, disco_key = :discoKey, "
                        + "hostname = :hostname, given_name = :givenName, user_id = :userId, tags = :tags, "
                        + "ipv4 = :ipv4, ipv6 = :ipv6, hostinfo = :hostinfo, endpoints = :endpoints, authorized = :authorized, ephemeral = :ephemeral, "
                        + "pre_auth_key_id = :preAuthKeyId, register_method = :registerMethod, last_seen = :lastSeen, "
                        + "key_expiry = :keyExpiry, advertised_routes = :advertisedRoutes, approved_routes = :approvedRoutes, "
                        + "suspended = :suspended, global_exit_priority = :globalExitPriority, "
                        + "key_expiry_disabled = :keyExpiryDisabled WHERE id = :id")
                .bindMap(values(node))
                .execute() == 1) {
            log.append(handle, ChangeLog.Kind.NODE, node.id());
            handle.afterCommit(() -> listener.nodeWritten(node));
        }
    }

    /** @return the node as written, or empty when there is no such node */
    public Optional<Node> markLastSeen(Handle handle, long id, java.time.Instant at) {
        CommitListener.requireTransaction(handle);
        handle.createUpdate("UPDATE nodes SET last_seen = :at WHERE id = :id").bind("id", id)
                .bind("at", at.toEpochMilli()).execute();
        Optional<Node> node = byId(handle, id);
        node.ifPresent(written -> {
            log.append(handle, ChangeLog.Kind.NODE_SEEN, id);
            handle.afterCommit(() -> listener.nodeLastSeenWritten(written));
        });
        return node;
    }

    /** Records that {@code expiry} of the node's key was announced (a column the node record does not carry). */
    public void markKeyExpiryAnnounced(Handle handle, long id, java.time.Instant expiry) {
        CommitListener.requireTransaction(handle);
        handle.createUpdate("UPDATE nodes SET key_expiry_announced = :expiry WHERE id = :id").bind("id", id)
                .bind("expiry", expiry.toEpochMilli()).execute();
    }

    /** Nodes whose key expired by {@code now} and whose expiry was not announced yet. */
    public List<Node> expiredUnannounced(Handle handle, java.time.Instant now) {
        return handle.createQuery("SELECT " + COLUMNS + " FROM nodes WHERE key_expiry IS NOT NULL AND key_expiry <= :now "
                        + "AND (key_expiry_announced IS NULL OR key_expiry_announced <> key_expiry) ORDER BY id")
                .bind("now", now.toEpochMilli()).map(NodeStore::map).list();
    }

    public boolean delete(Handle handle, long id) {
        CommitListener.requireTransaction(handle);
        boolean deleted = handle.createUpdate("DELETE FROM nodes WHERE id = :id").bind("id", id).execute() == 1;
        if (deleted) {
            log.append(handle, ChangeLog.Kind.NODE, id);
            handle.afterCommit(() -> listener.nodeDeleted(id));
        }
        return deleted;
    }

    public Optional<Node> byId(Handle handle, long id) {
        return one(handle, "id = :v", id);
    }

    public Optional<Node> byMachineKey(Handle handle, MachinePublicKey key) {
        return one(handle, "machine_key = :v", key.toText());
    }

    public Optional<Node> byNodeKey(Handle handle, NodePublicKey key) {
        return one(handle, "node_key = :v", key.toText());
    }

    public Optional<Node> byGivenName(Handle handle, String name) {
        return one(handle, "given_name = :v", name);
    }

    public List<Node> all(Handle handle) {
        return handle.createQuery("SELECT " + COLUMNS + " FROM nodes ORDER BY id").map(NodeStore::map).list();
    }

    public int countForUser(Handle handle, long userId) {
        return handle.createQuery("SELECT COUNT(*) FROM nodes WHERE user_id = :id").bind("id", userId)
                .mapTo(Integer.class).one();
    }

    private Optional<Node> one(Handle handle, String where, Object value) {
        return Lookups.one(handle.createQuery("SELECT " + COLUMNS + " FROM nodes WHERE " + where).bind("v", value)
                .map(NodeStore::map));
    }

    private static java.util.Map<String, Object> values(Node node) {
        java.util.Map<String, Object> values = new java.util.HashMap<>();
        values.put("id", node.id());
        values.put("stableId", node.stableId());
        values.put("machineKey", node.machineKey().toText());
        values.put("nodeKey", node.nodeKey().toText());
        values.put("discoKey", node.discoKey() == null ? "" : node.discoKey().toText());
        values.put("hostname", node.hostname());
        values.put("givenName", node.givenName());
        values.put("userId", node.userId());
        values.put("tags", TextLists.join(node.tags()));
        values.put("ipv4", node.ipv4());
        values.put("ipv6", node.ipv6());
        values.put("hostinfo", node.hostinfo());
        values.put("endpoints", TextLists.join(node.endpoints()));
        values.put("authorized", node.authorized());
        values.put("ephemeral", node.ephemeral());
        values.put("preAuthKeyId", node.preAuthKeyId());
        values.put("registerMethod", node.registerMethod().wireName());
        values.put("createdAt", node.createdAt().toEpochMilli());
        values.put("lastSeen", Times.toMillis(node.lastSeen()));
        values.put("keyExpiry", Times.toMillis(node.keyExpiry()));
        values.put("advertisedRoutes", TextLists.join(node.advertisedRoutes().stream().map(IpPrefix::toString).toList()));
        values.put("approvedRoutes", TextLists.join(node.approvedRoutes().stream().map(IpPrefix::toString).toList()));
        values.put("suspended", node.suspended());
        values.put("globalExitPriority", node.globalExitPriority());
        values.put("keyExpiryDisabled", node.keyExpiryDisabled());
        return values;
    }

    private static Node map(ResultSet rs, StatementContext ctx) throws SQLException {
        long user = rs.getLong("user_id");
        Long userId = rs.wasNull() ? null : user;
        long keyId = rs.getLong("pre_auth_key_id");
        Long preAuthKeyId = rs.wasNull() ? null : keyId;
        String disco = rs.getString("disco_key");
        int priority = rs.getInt("global_exit_priority");
        Integer globalExitPriority = rs.wasNull() ? null : priority;
        return new Node(rs.getLong("id"), rs.getString("stable_id"), MachinePublicKey.parse(rs.getString("machine_key")),
                NodePublicKey.parse(rs.getString("node_key")), disco.isEmpty() ? null : DiscoPublicKey.parse(disco),
                rs.getString("hostname"), rs.getString("given_name"), userId, TextLists.split(rs.getString("tags")),
                rs.getString("ipv4"), rs.getString("ipv6"), rs.getString("hostinfo"),
                TextLists.split(rs.getString("endpoints")), rs.getBoolean("authorized"), rs.getBoolean("ephemeral"),
                preAuthKeyId, Node.RegisterMethod.fromWireName(rs.getString("register_method")),
                Times.instant(rs, "created_at"), Times.instant(rs, "last_seen"), Times.instant(rs, "key_expiry"),
                prefixes(rs.getString("advertised_routes")), prefixes(rs.getString("approved_routes")),
                rs.getBoolean("suspended"), globalExitPriority, rs.getBoolean("key_expiry_disabled"));
    }

    private static List<IpPrefix> prefixes(String text) {
        return TextLists.split(text).stream().map(IpPrefix::parse).toList();
    }
}
