package io.meshcontrol.cli;

import io.meshcontrol.api.ApiException;
import io.meshcontrol.api.DebugNodeRequest;
import io.meshcontrol.api.NodeView;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Development commands, hidden from the help: the server answers them only with {@code debug.node_api_enabled}.
 */
@Command(name = "debug", hidden = true,
        description = "Development commands (the server needs debug.node_api_enabled: true).",
        subcommands = {DebugCommand.CreateNode.class})
final class DebugCommand extends CommandGroup {

    @Command(name = "create-node", description = "Register a machine with no client behind it, for trying things out.")
    static final class CreateNode extends Subcommand implements Callable<Integer> {
        @Option(names = "--user", required = true, description = "User the machine belongs to")
        String user;

        @Option(names = "--name", required = true, description = "Its host name")
        String name;

        @Option(names = "--key", description = "Its node key (nodekey:...); a new random one by default")
        String key;

        @Option(names = "--route", description = "A subnet route it advertises (repeatable)")
        List<String> routes = new ArrayList<>();

        @Mixin
        Output output;

        @Override
        public Integer call() {
            NodeView node;
            try {
                node = client().createDebugNode(new DebugNodeRequest(user, name, key, routes));
            } catch (ApiException e) {
                if (e.status() == 404 && e.getMessage() != null && e.getMessage().contains("no such endpoint")) {
                    throw new CliException("the server does not offer debug create-node: set debug.node_api_enabled: "
                            + "true in its configuration and restart it");
                }
                throw e;
            }
            output.print(context(), node, List.of(node), NodesCommand.COLUMNS);
            return 0;
        }
    }
}
