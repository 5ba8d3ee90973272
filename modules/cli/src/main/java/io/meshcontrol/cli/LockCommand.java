package io.meshcontrol.cli;

import io.meshcontrol.api.TailnetLockView;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

@Command(name = "lock", description = "Show the tailnet lock (machines change it with `tailscale lock ...`).",
        subcommands = {LockCommand.Status.class})
final class LockCommand extends CommandGroup {

    static final List<Output.Column<TailnetLockView>> COLUMNS = List.of(
            new Output.Column<>("ENABLED", l -> l.enabled() ? "yes" : "no"),
            new Output.Column<>("HEAD", l -> l.head() == null ? "-" : l.head()),
            new Output.Column<>("TRUSTED KEYS", l -> l.trustedKeys().stream()
                    .map(k -> k.key() + " (" + k.votes() + " votes)").collect(Collectors.joining(", "))),
            new Output.Column<>("LOCKED OUT", l -> l.lockedOut().stream()
                    .map(n -> n.name() + ": " + n.signCommand()).collect(Collectors.joining(", "))));

    @Command(name = "status", description = "Whether lock is on, its head, the trusted keys and the locked-out "
            + "machines with the command that signs each.")
    static final class Status extends Subcommand implements Callable<Integer> {
        @Mixin
        Output output;

        @Override
        public Integer call() {
            TailnetLockView lock = client().tailnetLock();
            output.print(context(), lock, List.of(lock), COLUMNS);
            return 0;
        }
    }
}
