package io.meshcontrol.cli;

import io.meshcontrol.api.UserList;
import io.meshcontrol.api.UserRequest;
import io.meshcontrol.api.UserView;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "users", description = "Manage users and their roles.",
        subcommands = {UsersCommand.ListUsers.class, UsersCommand.Create.class, UsersCommand.Rename.class,
                UsersCommand.SetRole.class, UsersCommand.Approve.class, UsersCommand.Delete.class})
final class UsersCommand extends CommandGroup {

    static final List<Output.Column<UserView>> COLUMNS = List.of(
            new Output.Column<>("ID", UserView::id),
            new Output.Column<>("NAME", UserView::name),
            new Output.Column<>("DISPLAY NAME", UserView::displayName),
            new Output.Column<>("EMAIL", UserView::email),
            new Output.Column<>("ROLE", UserView::role),
            new Output.Column<>("STATUS", user -> user.approved() ? "active" : "needs approval"),
            new Output.Column<>("CREATED", UserView::createdAt));

    @Command(name = "list", description = "List users, or show one with --name.")
    static final class ListUsers extends Subcommand implements Callable<Integer> {
        @Option(names = "--name", description = "Only the user with this name")
        String name;

        @Mixin
        Output output;

        @Override
        public Integer call() {
            List<UserView> users = name == null ? client().users() : List.of(client().user(name));
            output.print(context(), new UserList(users), users, COLUMNS);
            return 0;
        }
    }

    @Command(name = "create", description = "Create a user.")
    static final class Create extends Subcommand implements Callable<Integer> {
        @Option(names = "--name", required = true, description = "Login name")
        String name;

        @Option(names = "--display-name", description = "Name shown to people")
        String displayName;

        @Option(names = "--email", description = "E-mail address")
        String email;

        @Option(names = "--role", description = "owner, admin, it-admin, network-admin, billing-admin, auditor or member "
                + "(default: member)")
        String role;

        @Mixin
        Output output;

        @Override
        public Integer call() {
            UserView user = client().createUser(new UserRequest(name, displayName, email, role));
            output.print(context(), user, List.of(user), COLUMNS);
            return 0;
        }
    }

    /** A change to the user named by {@code --name}, printed after it is made. */
    abstract static class UserChange extends Subcommand implements Callable<Integer> {
        @Option(names = "--name", required = true, description = "User name")
        String name;

        @Mixin
        Output output;

        abstract UserRequest change();

        @Override
        public Integer call() {
            var client = client();
            UserView user = client.updateUser(client.user(name).id(), change());
            output.print(context(), user, List.of(user), COLUMNS);
            return 0;
        }
    }

    @Command(name = "rename", description = "Rename a user.")
    static final class Rename extends UserChange {
        @Option(names = "--new-name", required = true, description = "New name")
        String newName;

        @Override
        UserRequest change() {
            return UserRequest.rename(newName);
        }
    }

    @Command(name = "set-role", description = "Change a user's role.")
    static final class SetRole extends UserChange {
        @Option(names = "--role", required = true, description = "The new role")
        String role;

        @Override
        UserRequest change() {
            return UserRequest.role(role);
        }
    }

    @Command(name = "approve", description = "Approve a user who waits for users approval (a first login while "
            + "usersApprovalOn is set); their waiting machines join.")
    static final class Approve extends Subcommand implements Callable<Integer> {
        @Option(names = "--name", required = true, description = "User name")
        String name;

        @Mixin
        Output output;

        @Override
        public Integer call() {
            var client = client();
            UserView user = client.approveUser(client.user(name).id());
            output.print(context(), user, List.of(user), COLUMNS);
            return 0;
        }
    }

    @Command(name = "delete", description = "Delete a user; their API keys stop working.")
    static final class Delete extends Subcommand implements Callable<Integer> {
        @Option(names = "--name", required = true, description = "User name")
        String name;

        @Override
        public Integer call() {
            var client = client();
            client.deleteUser(client.user(name).id());
            context().note("deleted user " + name);
            return 0;
        }
    }
}
