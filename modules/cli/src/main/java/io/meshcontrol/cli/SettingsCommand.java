package io.meshcontrol.cli;

import io.meshcontrol.api.SettingsView;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "settings", description = "Show or change the network's runtime settings.",
        subcommands = {SettingsCommand.Show.class, SettingsCommand.Set.class})
final class SettingsCommand extends CommandGroup {

    static final List<Output.Column<SettingsView>> COLUMNS = List.of(
            new Output.Column<>("DEVICE APPROVAL", s -> onOff(s.devicesApprovalOn())),
            new Output.Column<>("USER APPROVAL", s -> onOff(s.usersApprovalOn())),
            new Output.Column<>("KEY DURATION DAYS", SettingsView::devicesKeyDurationDays));

    static String onOff(Boolean value) {
        return Boolean.TRUE.equals(value) ? "on" : "off";
    }

    @Command(name = "show", description = "Show the settings.")
    static final class Show extends Subcommand implements Callable<Integer> {
        @Mixin
        Output output;

        @Override
        public Integer call() {
            SettingsView settings = client().settings();
            output.print(context(), settings, List.of(settings), COLUMNS);
            return 0;
        }
    }

    @Command(name = "set", description = "Change only the settings given.")
    static final class Set extends Subcommand implements Callable<Integer> {
        @Option(names = "--device-approval", description = "on or off: new machines wait for approval")
        Switch deviceApproval;

        @Option(names = "--user-approval", description = "on or off: new users wait for approval")
        Switch userApproval;

        @Option(names = "--key-duration-days", description = "Node key lifetime in days, 1-180; 0: node.expiry of the configuration decides")
        Integer keyDurationDays;

        @Mixin
        Output output;

        @Override
        public Integer call() {
            SettingsView settings = client().updateSettings(new SettingsView(Switch.value(deviceApproval),
                    Switch.value(userApproval), keyDurationDays));
            output.print(context(), settings, List.of(settings), COLUMNS);
            return 0;
        }
    }

    enum Switch {
        on, off;

        static Boolean value(Switch s) {
            return s == null ? null : s == on;
        }
    }
}
