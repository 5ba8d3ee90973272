package io.meshcontrol.cli;

import io.meshcontrol.api.BulkRequest;
import io.meshcontrol.api.BulkResult;
import io.meshcontrol.api.GlobalExitNodeRequest;
import io.meshcontrol.api.MeshClient;
import io.meshcontrol.api.NodeList;
import io.meshcontrol.api.NodeView;
import io.meshcontrol.api.RoutesView;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.BiFunction;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "nodes", description = "Manage the machines in the network.",
        subcommands = {NodesCommand.ListNodes.class, NodesCommand.Show.class, NodesCommand.Rename.class,
                NodesCommand.Tag.class, NodesCommand.Expire.class, NodesCommand.Approve.class, NodesCommand.Suspend.class,
                NodesCommand.Unsuspend.class, NodesCommand.Delete.class,
                NodesCommand.ListRoutes.class, NodesCommand.ApproveRoutes.class,
                NodesCommand.GlobalExitNode.class, NodesCommand.Bulk.class})
final class NodesCommand extends CommandGroup {

    static final List<Output.Column<NodeView>> COLUMNS = List.of(
            new Output.Column<>("ID", NodeView::id),
            new Output.Column<>("NAME", NodeView::name),
            new Output.Column<>("HOSTNAME", NodeView::hostname),
            new Output.Column<>("OWNER", n -> n.user() == null ? String.join(",", n.tags()) : n.user()),
            new Output.Column<>("IPV4", NodeView::ipv4),
            new Output.Column<>("IPV6", NodeView::ipv6),
            new Output.Column<>("STATE", n -> n.suspended() ? "suspended" : n.expired() ? "expired"
                    : !n.authorized() ? "waiting for approval"
                    : n.lockedOut() ? "locked out by tailnet lock: " + n.tailnetLockSign() : "approved"),
            new Output.Column<>("LAST SEEN", n -> n.online() ? "now" : n.lastSeen()));

    /** A node's routes: what is approved, what it advertises, what it serves now. */
    static final List<Output.Column<RoutesView>> ROUTES = List.of(
            new Output.Column<>("APPROVED", r -> String.join(", ", r.approved())),
            new Output.Column<>("AVAILABLE", r -> String.join(", ", r.available())),
            new Output.Column<>("SERVING", r -> String.join(", ", r.serving())),
            new Output.Column<>("GLOBAL EXIT", r -> r.globalExitNode() ? "priority " + r.exitNodePriority() : ""));

    /** Nodes with their {@link #ROUTES}. */
    static final List<Output.Column<NodeView>> ROUTE_COLUMNS = Stream.concat(
            Stream.of(new Output.Column<NodeView>("ID", NodeView::id), new Output.Column<NodeView>("NAME", NodeView::name)),
            ROUTES.stream().map(column -> new Output.Column<NodeView>(column.title(),
                    n -> column.value().apply(n.routes())))).toList();

    /** The node a person means: an id, or a node name. */
    abstract static class OneNode extends Subcommand implements Callable<Integer> {
        @Option(names = {"--identifier", "-i"}, required = true, description = "Node id or name")
        String identifier;

        @Mixin
        Output output;

        String resolve(MeshClient client) {
            if (identifier.chars().allMatch(Character::isDigit)) {
                return identifier;
            }
            return client.nodes().stream().filter(n -> n.name().equals(identifier)).findFirst()
                    .orElseThrow(() -> new CliException("no node named \"" + identifier + "\"")).id();
        }

        Integer apply(BiFunction<MeshClient, String, NodeView> action) {
            return apply(action, COLUMNS);
        }

        /** Runs the one request of {@code action} on the node and prints its answer with {@code columns}. */
        <T> Integer apply(BiFunction<MeshClient, String, T> action, List<Output.Column<T>> columns) {
            MeshClient client = client();
            T answer = action.apply(client, resolve(client));
            output.print(context(), answer, List.of(answer), columns);
            return 0;
        }
    }

    @Command(name = "list", description = "List nodes.")
    static final class ListNodes extends Subcommand implements Callable<Integer> {
        @Mixin
        Output output;

        @Override
        public Integer call() {
            List<NodeView> nodes = client().nodes();
            output.print(context(), new NodeList(nodes), nodes, COLUMNS);
            return 0;
        }
    }

    @Command(name = "show", description = "Show one node.")
    static final class Show extends OneNode {
        @Override
        public Integer call() {
            return apply(MeshClient::node);
        }
    }

    @Command(name = "rename", description = "Rename a node (its MagicDNS name).")
    static final class Rename extends OneNode {
        @Option(names = "--name", required = true, description = "New name: one DNS label")
        String name;

        @Override
        public Integer call() {
            return apply((client, id) -> client.renameNode(id, name));
        }
    }

    @Command(name = "tag", description = "Set a node's tags; a user's node then belongs to the tags.")
    static final class Tag extends OneNode {
        @Option(names = "--tag", required = true, description = "Tag such as tag:server (repeatable)")
        List<String> tags;

        @Override
        public Integer call() {
            return apply((client, id) -> client.tagNode(id, tags));
        }
    }

    @Command(name = "expire", description = "Expire a node's key now; it must log in again.")
    static final class Expire extends OneNode {
        @Override
        public Integer call() {
            return apply(MeshClient::expireNode);
        }
    }

    @Command(name = "approve", description = "Approve a node that waits for device approval.")
    static final class Approve extends OneNode {
        @Override
        public Integer call() {
            return apply(MeshClient::approveNode);
        }
    }

    @Command(name = "suspend", description = "Suspend a node: it keeps its place but has no peers and is no one's "
            + "peer until unsuspended.")
    static final class Suspend extends OneNode {
        @Override
        public Integer call() {
            return apply(MeshClient::suspendNode);
        }
    }

    @Command(name = "unsuspend", description = "Lift a node's suspension.")
    static final class Unsuspend extends OneNode {
        @Override
        public Integer call() {
            return apply(MeshClient::unsuspendNode);
        }
    }

    @Command(name = "list-routes", description = "List the nodes that advertise or have approved routes.")
    static final class ListRoutes extends Subcommand implements Callable<Integer> {
        @Mixin
        Output output;

        @Override
        public Integer call() {
            List<NodeView> routers = client().nodes().stream()
                    .filter(n -> !n.routes().approved().isEmpty() || !n.routes().available().isEmpty()).toList();
            output.print(context(), new NodeList(routers), routers, ROUTE_COLUMNS);
            return 0;
        }
    }

    @Command(name = "approve-routes",
            description = "Set a node's approved routes (replaces them; an empty list clears them). "
                    + "Either exit route (0.0.0.0/0, ::/0) approves both.")
    static final class ApproveRoutes extends OneNode {
        @Option(names = {"--routes", "-r"}, required = true, split = ",", arity = "0..1",
                description = "Routes to approve, comma-separated CIDR prefixes such as 10.0.0.0/24,192.168.1.0/24")
        List<String> routes = List.of();

        @Override
        public Integer call() {
            List<String> given = routes.stream().map(String::strip).filter(r -> !r.isEmpty()).toList();
            return apply((client, id) -> client.setNodeRoutes(id, given), ROUTES);
        }
    }

    @Command(name = "global-exit-node",
            description = "Mark a node that advertises an exit route as a global exit node (its exit routes are "
                    + "approved), or clear the mark. "
                    + "While some node is marked, clients suggest only marked exit nodes; with priorities, the "
                    + "highest online one.")
    static final class GlobalExitNode extends OneNode {
        @Option(names = "--revoke", description = "Clear the mark (the priority resets to 0; approved routes stay)")
        boolean revoke;

        @Option(names = "--priority", description = "Priority of the mark, 0 or more, higher preferred "
                + "(default: keep the current one; 0 for a new mark)")
        Integer priority;

        @Override
        public Integer call() {
            if (revoke && priority != null) {
                throw new CliException("--priority applies to a mark; --revoke clears it and resets the priority");
            }
            return apply((client, id) -> client.setGlobalExitNode(id,
                    new GlobalExitNodeRequest(revoke ? false : null, priority)), ROUTES);
        }
    }

    @Command(name = "delete", description = "Delete a node.")
    static final class Delete extends OneNode {
        @Override
        public Integer call() {
            MeshClient client = client();
            String id = resolve(client);
            client.deleteNode(id);
            context().note("deleted node " + identifier);
            return 0;
        }
    }

    @Command(name = "bulk", description = "One action on many nodes with one request, all or nothing: approve, delete, "
            + "expire, disable-key-expiry, add-tags or remove-tags (with --tags). If any id is unknown or refused, "
            + "nothing changes and the error names them.")
    static final class Bulk extends Subcommand implements Callable<Integer> {
        @Parameters(index = "0", description = "approve, delete, expire, disable-key-expiry, add-tags or remove-tags")
        String action;

        @Parameters(index = "1..*", arity = "1..*", description = "Node ids")
        List<String> ids;

        @Option(names = "--tags", split = ",", description = "Tags to add or remove (add-tags, remove-tags)")
        List<String> tags;

        @Mixin
        Output output;

        @Override
        public Integer call() {
            BulkResult result = client().bulkNodes(new BulkRequest(action, ids, tags));
            output.print(context(), result, List.of(result), List.of(
                    new Output.Column<>("ACTION", BulkResult::action),
                    new Output.Column<>("CHANGED", r -> String.join(",", r.changed())),
                    new Output.Column<>("UNCHANGED", r -> String.join(",", r.unchanged()))));
            return 0;
        }
    }
}
