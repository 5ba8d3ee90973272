package io.meshcontrol.cli;

import io.meshcontrol.api.AuthRegisterRequest;
import io.meshcontrol.api.MeshClient;
import io.meshcontrol.api.NodeView;
import io.meshcontrol.api.SshCheckList;
import io.meshcontrol.api.SshCheckView;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.BiFunction;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "auth", description = "Complete interactive logins of machines; decide SSH checks.",
        subcommands = {AuthCommand.Register.class, AuthCommand.RefuseLogin.class, AuthCommand.Approve.class, AuthCommand.Reject.class,
                AuthCommand.Checks.class})
final class AuthCommand extends CommandGroup {

    static final List<Output.Column<SshCheckView>> CHECK_COLUMNS = List.of(
            new Output.Column<>("AUTH ID", SshCheckView::authId),
            new Output.Column<>("FROM", SshCheckView::srcNode),
            new Output.Column<>("OWNER", SshCheckView::srcOwner),
            new Output.Column<>("TO", SshCheckView::dstNode),
            new Output.Column<>("AS", SshCheckView::localUser),
            new Output.Column<>("LAPSES", SshCheckView::expiresAt));

    @Command(name = "register", description = "Let the machine waiting with this auth id join as the user's machine "
            + "(or the tags' machine); the console's register page does the same.")
    static final class Register extends Subcommand implements Callable<Integer> {
        @Option(names = "--user", description = "User the machine belongs to")
        String user;

        @Option(names = "--tags", split = ",", description = "Tags the machine belongs to instead of a user "
                + "(comma-separated, from the policy's tagOwners)")
        List<String> tags;

        @Option(names = "--approve", description = "With device approval on, approve the machine in the same step")
        boolean approve;

        @Option(names = "--auth-id", required = true, description = "Last part of the URL the machine printed")
        String authId;

        @Mixin
        Output output;

        @Override
        public Integer call() {
            NodeView node = client().registerAuth(new AuthRegisterRequest(user, authId, tags, approve));
            output.print(context(), node, List.of(node), NodesCommand.COLUMNS);
            return 0;
        }
    }

    @Command(name = "refuse-login", description = "Refuse the interactive login of the machine waiting with this "
            + "auth id: its tailscale up ends with the refusal.")
    static final class RefuseLogin extends Subcommand implements Callable<Integer> {
        @Option(names = "--auth-id", required = true, description = "Last part of the URL the machine printed")
        String authId;

        @Override
        public Integer call() {
            client().refuseRegistration(authId);
            context().line("refused the login " + authId);
            return 0;
        }
    }

    /** One SSH check named by {@code --auth-id}, decided by {@link #decide}. */
    abstract static class Decision extends Subcommand implements Callable<Integer> {
        @Option(names = "--auth-id", required = true, description = "Last part of the check URL the session printed")
        String authId;

        @Mixin
        Output output;

        abstract BiFunction<MeshClient, String, SshCheckView> decide();

        @Override
        public Integer call() {
            SshCheckView check = decide().apply(client(), authId);
            output.print(context(), check, List.of(check), CHECK_COLUMNS);
            return 0;
        }
    }

    @Command(name = "approve", description = "Let an SSH session held by a check rule in.")
    static final class Approve extends Decision {
        @Override
        BiFunction<MeshClient, String, SshCheckView> decide() {
            return MeshClient::approveSshCheck;
        }
    }

    @Command(name = "reject", description = "Refuse an SSH session held by a check rule (final for that session).")
    static final class Reject extends Decision {
        @Override
        BiFunction<MeshClient, String, SshCheckView> decide() {
            return MeshClient::rejectSshCheck;
        }
    }

    @Command(name = "checks", description = "List SSH sessions waiting for a check, soonest to lapse first.")
    static final class Checks extends Subcommand implements Callable<Integer> {
        @Mixin
        Output output;

        @Override
        public Integer call() {
            List<SshCheckView> checks = client().sshChecks();
            output.print(context(), new SshCheckList(checks), checks, CHECK_COLUMNS);
            return 0;
        }
    }
}
