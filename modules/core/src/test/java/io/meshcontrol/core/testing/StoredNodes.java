package io.meshcontrol.core.testing;

import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.store.Database;
import io.meshcontrol.core.store.NodeStore;
import java.nio.file.Path;
import java.util.List;

/**
 * Many nodes written straight into a database in one transaction, for tests of what reads the node table at scale (a
 * list of 10,000 machines): registering them one by one takes minutes. Nothing is published on a change feed, so a
 * running network's snapshot does not hold them; only readers of the table see them.
 */
public final class StoredNodes {

    private StoredNodes() {
    }

    /**
     * Writes {@code nodes} to the database in {@code databaseFile} (WAL, beside a server that has it open), each with
     * the next node id in place of its own.
     */
    public static void write(Path databaseFile, List<Node> nodes) {
        NodeStore store = new NodeStore();
        try (Database database = Database.open(databaseFile, true)) {
            database.jdbi().useTransaction(h -> {
                for (Node n : nodes) {
                    store.insert(h, new Node(store.nextId(h), n.stableId(), n.machineKey(), n.nodeKey(), n.discoKey(),
                            n.hostname(), n.givenName(), n.userId(), n.tags(), n.ipv4(), n.ipv6(), n.hostinfo(),
                            n.endpoints(), n.authorized(), n.ephemeral(), n.preAuthKeyId(), n.registerMethod(),
                            n.createdAt(), n.lastSeen(), n.keyExpiry(), n.advertisedRoutes(), n.approvedRoutes(),
                            n.suspended(), n.globalExitPriority(), n.keyExpiryDisabled()));
                }
            });
        }
    }
}
