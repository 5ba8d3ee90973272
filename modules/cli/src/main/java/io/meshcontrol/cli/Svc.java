package io.meshcontrol.cli;

import io.meshcontrol.api.ApiException;
import io.meshcontrol.api.ServerUnreachableException;
import io.meshcontrol.core.BuildInfo;
import io.meshcontrol.core.MeshException;
import picocli.CommandLine;

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
        CommandLine commandLine = new CommandLine(new RootCommand(context));
        commandLine.setOut(new java.io.PrintWriter(context.out(), true));
        commandLine.setErr(new java.io.PrintWriter(context.err(), true));
        commandLine.setParameterExceptionHandler((e, arguments) -> {
            context.err().println("svc: " + e.getMessage());
            context.err().println("Try '" + e.getCommandLine().getCommandSpec().qualifiedName() + " --help' for usage.");
            return USAGE;
        });
        commandLine.setExecutionExceptionHandler((e, cmd, parsed) -> {
            context.err().println("svc: " + describe(e));
            return FAILED;
        });
        return commandLine.execute(args);
    }

    private static String describe(Exception e) {
        return switch (e) {
            case ApiException api -> api.getMessage() + " (HTTP " + api.status() + ")";
            case ServerUnreachableException unreachable -> unreachable.getMessage();
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
