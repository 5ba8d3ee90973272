package io.meshcontrol.cli;

import io.meshcontrol.core.config.ConfigRequest;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Map;

/** What a command reads from its surroundings; injectable so that tests run the real commands in-process. */
public record CliContext(PrintStream out, PrintStream err, Map<String, String> env, Path workingDir, Path homeDir) {

    /** Where the launchers put the name the CLI was started by. */
    static final String COMMAND_NAME_VARIABLE = "SVC_COMMAND_NAME";

    /**
     * Prints one line for people on stdout, with the characters that could take over a terminal shown as escapes
     * ({@link TerminalText}): the text may carry names and messages from the server. Documents ({@code -o json},
     * {@code policy get}) go to {@link #out()} as they are.
     */
    public void line(String text) {
        out.println(TerminalText.escape(text));
    }

    /** {@link #line} on stderr: notes, warnings and errors. */
    public void note(String text) {
        err.println(TerminalText.escape(text));
    }

    /**
     * The command as the user started it, for the commands the CLI suggests: {@code SVC_COMMAND_NAME}, which the
     * launchers set ({@code ./svc} from a checkout, {@code svc} when installed on the PATH), else {@code svc}.
     */
    public String commandName() {
        String name = env.getOrDefault(COMMAND_NAME_VARIABLE, "");
        return name.isBlank() ? "svc" : name;
    }

    /**
     * The process's streams, environment, working folder and home: {@code $HOME} when set, as for the other programs
     * the user runs (sudo, su and containers may set it to other than the account's entry in the password database),
     * the way {@link ConfigRequest#fromSystem} decides it.
     */
    public static CliContext fromSystem() {
        ConfigRequest system = ConfigRequest.fromSystem(null);
        return new CliContext(System.out, System.err, System.getenv(), system.workingDir(), system.homeDir());
    }
}
