package io.meshcontrol.cli;

import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code svc help [command [subcommand]]}: the usage of any command, at any depth, as {@code --help} prints it.
 * (picocli's own help command looks one level down only, so {@code svc help apikeys create} would fail.)
 */
@Command(name = "help", helpCommand = true, description = "Print the usage of svc or of the command named.")
final class HelpCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "COMMAND", arity = "0..*", description = "A command and its subcommands, e.g. apikeys create")
    List<String> names = List.of();

    @Override
    public Integer call() {
        CommandLine command = spec.root().commandLine();
        for (String name : names) {
            CommandLine sub = command.getSubcommands().get(name);
            if (sub == null) {
                throw new ParameterException(command, "unknown command '" + command.getCommandSpec().qualifiedName()
                        + " " + name + "'");
            }
            command = sub;
        }
        command.usage(spec.commandLine().getOut());
        return 0;
    }
}
