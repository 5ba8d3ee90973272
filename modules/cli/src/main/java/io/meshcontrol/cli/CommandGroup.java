package io.meshcontrol.cli;

import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * A command that only groups others ({@code svc nodes}): given alone, it prints its usage, which lists its
 * subcommands, instead of failing with "missing subcommand".
 */
abstract class CommandGroup implements Runnable {

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        CommandLine command = spec.commandLine();
        command.usage(command.getOut());
    }
}
