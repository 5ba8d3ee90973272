package io.meshcontrol.cli;

import io.meshcontrol.api.NodeView;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "auth", description = "Complete interactive logins of machines.",
        subcommands = {AuthCommand.Register.class})
final class AuthCommand extends CommandGroup {

    @Command(name = "register", description = "Let the machine waiting with this auth id join as the user's machine.")
    static final class Register extends Subcommand implements Callable<Integer> {
        @Option(names = "--user", required = true, description = "User the machine belongs to")
        String user;

        @Option(names = "--auth-id", required = true, description = "Last part of the URL the machine printed")
        String authId;

        @Mixin
        Output output;

        @Override
        public Integer call() {
            NodeView node = client().registerAuth(user, authId);
            output.print(context(), node, List.of(node), NodesCommand.COLUMNS);
            return 0;
        }
    }
}
