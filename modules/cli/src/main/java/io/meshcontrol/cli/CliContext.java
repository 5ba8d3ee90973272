package io.meshcontrol.cli;

import io.meshcontrol.core.config.ConfigRequest;
import java.io.BufferedOutputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Map;

/** What a command reads from its surroundings; injectable so that tests run the real commands in-process. */
public record CliContext(PrintStream out, PrintStream err, Map<String, String> env, Path workingDir, Path homeDir) {

    /** Where the launchers put the name the CLI was started by. */
    static final String COMMAND_NAME_VARIABLE = "SVC_COMMAND_NAME";
    /** The descriptor of the command's output, when the launcher moved it off descriptor 1. */
    static final String STDOUT_FD_VARIABLE = "SVC_STDOUT_FD";

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
        PrintStream out = standardOutput(System.getenv());
        System.setOut(out);
        return new CliContext(out, System.err, System.getenv(), system.workingDir(), system.homeDir());
    }

    /**
     * Where a command's output goes: the descriptor {@code SVC_STDOUT_FD} names, else {@link System#out}. The
     * launchers start the JVM with its descriptor 1 on stderr and hand the real stdout over as descriptor 3: HotSpot
     * prints the banner of a crash on descriptor 1 whatever its flags say, and it must not land in a pipe that
     * expects a command's output. The descriptor is opened as {@code /dev/fd/N} (Linux, and other Unix systems), in
     * append mode so that output redirected with {@code >>} is added to, not written over.
     */
    static PrintStream standardOutput(Map<String, String> env) {
        String number = env.getOrDefault(STDOUT_FD_VARIABLE, "");
        if (!number.matches("[0-9]{1,4}")) {
            return System.out;
        }
        try {
            return new PrintStream(new BufferedOutputStream(new FileOutputStream("/dev/fd/" + number, true)), true,
                    System.out.charset());
        } catch (IOException e) {
            System.err.println("svc: warning: output goes to stderr: descriptor " + number + " (" + STDOUT_FD_VARIABLE
                    + ") cannot be opened: " + e.getMessage());
            return System.out;
        }
    }
}
