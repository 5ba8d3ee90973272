package io.meshcontrol.cli;

import io.meshcontrol.api.AccessRequestList;
import io.meshcontrol.api.AccessRequestRequest;
import io.meshcontrol.api.AccessRequestView;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "access-requests",
        description = "Just-in-time access: ask to join a policy group for a while; approve, deny or revoke.",
        subcommands = {AccessRequestsCommand.Create.class, AccessRequestsCommand.ListRequests.class,
                AccessRequestsCommand.Show.class, AccessRequestsCommand.Approve.class,
                AccessRequestsCommand.Deny.class, AccessRequestsCommand.Revoke.class})
final class AccessRequestsCommand extends CommandGroup {

    static final List<Output.Column<AccessRequestView>> COLUMNS = List.of(
            new Output.Column<>("ID", AccessRequestView::id),
            new Output.Column<>("USER", AccessRequestView::user),
            new Output.Column<>("GROUP", AccessRequestView::group),
            new Output.Column<>("DURATION", AccessRequestView::duration),
            new Output.Column<>("STATE", AccessRequestView::state),
            new Output.Column<>("UNTIL", r -> r.endedAt() != null ? r.endedAt() : r.expiresAt()),
            new Output.Column<>("REASON", AccessRequestView::reason));

    @Command(name = "create", description = "Ask to join a policy group for a while (for yourself, or --user).")
    static final class Create extends Subcommand implements Callable<Integer> {
        @Option(names = "--group", required = true, description = "A group the policy defines, such as group:oncall")
        String group;

        @Option(names = "--reason", required = true, description = "Why, for the approvers")
        String reason;

        @Option(names = "--duration", required = true, converter = DurationOption.class,
                description = "How long once approved: 30m, 8h, 1d, 2 weeks ... (1 minute to 30 days)")
        String duration;

        @Option(names = "--user", description = "The user who is to join (default: the credential's own user)")
        String user;

        @Mixin
        Output output;

        @Override
        public Integer call() {
            AccessRequestView created = client().createAccessRequest(
                    new AccessRequestRequest(user, group, reason, duration));
            output.print(context(), created, List.of(created), COLUMNS);
            return 0;
        }
    }

    @Command(name = "list", description = "List access requests, newest first.")
    static final class ListRequests extends Subcommand implements Callable<Integer> {
        @Mixin
        Output output;

        @Override
        public Integer call() {
            List<AccessRequestView> requests = client().accessRequests();
            output.print(context(), new AccessRequestList(requests), requests, COLUMNS);
            return 0;
        }
    }

    /** One request named by {@code --id}, printed after {@link #apply} (a decision, or none). */
    abstract static class OneRequest extends Subcommand implements Callable<Integer> {
        @Option(names = "--id", required = true, description = "Access request id")
        String id;

        @Mixin
        Output output;

        /** The decision word of the API, or null to only show the request. */
        abstract String decision();

        @Override
        public Integer call() {
            AccessRequestView request = decision() == null ? client().accessRequest(id)
                    : client().decideAccessRequest(id, decision());
            output.print(context(), request, List.of(request), COLUMNS);
            return 0;
        }
    }

    @Command(name = "show", description = "Show one access request.")
    static final class Show extends OneRequest {
        @Override
        String decision() {
            return null;
        }
    }

    @Command(name = "approve", description = "Approve a pending request: the membership starts now.")
    static final class Approve extends OneRequest {
        @Override
        String decision() {
            return "approve";
        }
    }

    @Command(name = "deny", description = "Deny a pending request.")
    static final class Deny extends OneRequest {
        @Override
        String decision() {
            return "deny";
        }
    }

    @Command(name = "revoke", description = "End a granted membership before it runs out.")
    static final class Revoke extends OneRequest {
        @Override
        String decision() {
            return "revoke";
        }
    }
}
