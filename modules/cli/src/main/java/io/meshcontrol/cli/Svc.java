package io.meshcontrol.cli;

import io.meshcontrol.api.ApiException;
import io.meshcontrol.api.ClientSettingsException;
import io.meshcontrol.api.ServerUnreachableException;
import io.meshcontrol.core.BuildInfo;
import io.meshcontrol.core.MeshException;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/** Entry point of the {@code svc} command. */
public final class Svc {

    /** Exit code for a refused or failed operation. */
    static final int FAILED = 1;
    /** Exit code for a command line that cannot be understood. */
    static final int USAGE = 2;

    private Svc() {
    }

    public static void main(String[] args) {
        System.exit(run(CliContext.fromSystem(), args));
    }

    /** Runs one command line; returns its exit code. Errors are one readable line on stderr. */
    public static int run(CliContext context, String... args) {
        CommandLine commandLine = CommandTree.forArgs(context, args);
        addHelpOption(commandLine);
        ImportCommand.ownConfigOption(commandLine);
        commandLine.setOut(new java.io.PrintWriter(context.out(), true));
        commandLine.setErr(new java.io.PrintWriter(context.err(), true));
        commandLine.setParameterExceptionHandler((e, arguments) -> {
            context.note("svc: " + e.getMessage());
            context.note("Try '" + e.getCommandLine().getCommandSpec().qualifiedName() + " --help' for usage.");
            return USAGE;
        });
        commandLine.setExecutionExceptionHandler((e, cmd, parsed) -> {
            context.note("svc: " + describe(e));
            return FAILED;
        });
        try {
            return commandLine.execute(args);
        } finally {
            // (the HTTP clients' threads would hold the JVM's exit up to 0.3 s: MeshClient.close)
            ((RootCommand) commandLine.getCommand()).closeClients();
        }
    }

    /**
     * Gives every command below the root (which has picocli's standard -h/--help/-V/--version) its own -h/--help,
     * here in one place so that a command added later cannot lack it.
     */
    private static void addHelpOption(CommandLine command) {
        CommandSpec spec = command.getCommandSpec();
        if (spec.findOption("--help") == null) {
            spec.addOption(OptionSpec.builder("-h", "--help").usageHelp(true)
                    .description("Show this command's usage and exit.").build());
        }
        command.getSubcommands().values().forEach(Svc::addHelpOption);
    }

    private static String describe(Exception e) {
        return switch (e) {
            case ApiException api -> api.getMessage() + " (HTTP " + api.status() + ")";
            case ServerUnreachableException unreachable -> unreachable.getMessage();
            case ClientSettingsException settings -> settings.getMessage();
            case CliException cli -> cli.getMessage();
            case MeshException mesh -> mesh.getMessage();
            case io.meshcontrol.core.policy.PolicyException policy -> policy.getMessage();
            default -> "unexpected " + e.getClass().getSimpleName() + ": " + e.getMessage();
        };
    }

    static String version() {
        return BuildInfo.version();
    }
}
