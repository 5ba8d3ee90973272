package io.meshcontrol.core.state;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.model.PreAuthKey;
import io.meshcontrol.core.model.User;
import io.meshcontrol.core.store.AuditStore;
import io.meshcontrol.core.store.NodeStore;
import io.meshcontrol.core.store.PreAuthKeyStore;
import io.meshcontrol.core.store.UserStore;
import java.util.List;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/**
 * Fills an empty network with what another control server held ({@code svc import headscale}): users with their
 * login identities, nodes with their keys and addresses, pre-auth keys and the policy, all with the ids they had, in
 * one change of the writer with an audit entry per item. A network that already has users or nodes is refused: an
 * import never merges.
 */
public final class NetworkImport {

    /** A login identity (OIDC issuer and subject) that signs in as the user with {@code userId}. */
    public record Identity(String issuer, String subject, long userId) {
    }

    /**
     * What is imported; ids are the source's and are kept.
     *
     * @param policy the policy text, or null to keep the network's
     */
    public record Contents(List<User> users, List<Identity> identities, List<Node> nodes, List<PreAuthKey> keys,
            String policy) {

        public Contents {
            users = List.copyOf(users);
            identities = List.copyOf(identities);
            nodes = List.copyOf(nodes);
            keys = List.copyOf(keys);
        }
    }

    private final Jdbi jdbi;
    private final Writer writer;
    private final UserStore users;
    private final NodeStore nodes;
    private final PreAuthKeyStore keys;
    private final Policies policies;
    private final AuditStore audit = new AuditStore();

    NetworkImport(Jdbi jdbi, Writer writer, UserStore users, NodeStore nodes, PreAuthKeyStore keys, Policies policies) {
        this.jdbi = jdbi;
        this.writer = writer;
        this.users = users;
        this.nodes = nodes;
        this.keys = keys;
        this.policies = policies;
    }

    /** Why the network cannot take an import, or null when it can: it must have no users and no nodes. */
    public String notEmptyReason() {
        return jdbi.withHandle(this::notEmptyReason);
    }

    private String notEmptyReason(Handle h) {
        int userCount = users.all(h).size();
        int nodeCount = nodes.all(h).size();
        if (userCount == 0 && nodeCount == 0) {
            return null;
        }
        return "the network is not empty (" + userCount + " user(s), " + nodeCount + " node(s)); an import only fills "
                + "an empty network: use a new database (database.sqlite.path)";
    }

    /**
     * Writes {@code contents} in one transaction. Only an all-access caller (the local administrator) may import.
     *
     * @throws MeshException (conflict) when the network is not empty; (invalid) when the policy is refused
     */
    public void apply(Caller caller, Contents contents) {
        Writer.Permission allAccess = held -> {
            if (!held.isAllAccess()) {
                throw MeshException.forbidden("only an all-access caller (svc import on the server's machine) may "
                        + "import a network");
            }
        };
        writer.change(caller, allAccess, (h, now) -> {
            String reason = notEmptyReason(h);
            if (reason != null) {
                throw MeshException.conflict(reason);
            }
            for (User user : contents.users()) {
                users.insertImported(h, user);
                audit.append(h, caller.audited(now, "user.import", Long.toString(user.id()), AuditDetails.of()
                        .put("name", user.name()).put("email", user.email()).map()));
            }
            for (Identity identity : contents.identities()) {
                users.linkIdentity(h, identity.issuer(), identity.subject(), identity.userId());
            }
            for (PreAuthKey key : contents.keys()) {
                keys.reserveIdsThrough(h, key.id());
                keys.insert(h, key);
                audit.append(h, caller.audited(now, "preauthkey.import", Long.toString(key.id()), AuditDetails.of()
                        .put("prefix", key.prefix()).put("tags", String.join(",", key.tags()))
                        .put("reusable", key.reusable()).put("expires", key.expiresAt()).map()));
            }
            for (Node node : contents.nodes()) {
                nodes.reserveIdsThrough(h, node.id());
                nodes.insert(h, node);
                audit.append(h, caller.audited(now, "node.import", Long.toString(node.id()), AuditDetails.of()
                        .put("name", node.givenName()).put("ipv4", String.valueOf(node.ipv4()))
                        .put("ipv6", String.valueOf(node.ipv6())).map()));
            }
            if (contents.policy() != null) {
                policies.saveImported(h, caller, contents.policy(), now);
            }
            return null;
        });
    }
}
