package io.meshcontrol.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

/** Every command of the whole tree prints its own usage for --help, -h and svc help, and exits 0. */
class HelpCliTest {

    @TempDir
    static Path folder;

    /** Every command path below the root, walked from the real command tree (so a new command is covered). */
    static Stream<List<String>> commands() {
        CliContext context = new CliContext(new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(new ByteArrayOutputStream()), Map.of(), Path.of("."), Path.of("."));
        List<List<String>> paths = new ArrayList<>();
        collect(CommandTree.whole(context), List.of(), paths);
        return paths.stream();
    }

    private static void collect(CommandLine command, List<String> path, List<List<String>> paths) {
        paths.add(path);
        command.getSubcommands().forEach((name, sub) -> {
            List<String> below = new ArrayList<>(path);
            below.add(name);
            collect(sub, below, paths);
        });
    }

    private static CliRun svc(List<String> words, String... more) {
        List<String> args = new ArrayList<>(words);
        args.addAll(List.of(more));
        return CliRun.run(folder, Map.of(), args.toArray(String[]::new));
    }

    private static void assertUsageOf(List<String> path, CliRun run) {
        assertEquals(0, run.exitCode(), run.toString());
        String usage = "Usage: " + String.join(" ", prepend("svc", path)) + " ";
        assertTrue(run.out().startsWith(usage), "expected '" + usage + "...' but got:\n" + run);
        assertEquals("", run.err(), run.toString());
    }

    private static List<String> prepend(String first, List<String> rest) {
        List<String> all = new ArrayList<>(List.of(first));
        all.addAll(rest);
        return all;
    }

    @Test
    void theTreeIsWalked() {
        List<List<String>> all = commands().toList();
        assertTrue(all.contains(List.of("apikeys", "create")), all.toString());
        assertTrue(all.contains(List.of("derp", "relay", "add")), all.toString());
    }

    @ParameterizedTest
    @MethodSource("commands")
    void longHelpOptionPrintsTheCommandsUsage(List<String> path) {
        assertUsageOf(path, svc(path, "--help"));
    }

    @ParameterizedTest
    @MethodSource("commands")
    void shortHelpOptionPrintsTheCommandsUsage(List<String> path) {
        assertUsageOf(path, svc(path, "-h"));
    }

    @ParameterizedTest
    @MethodSource("commands")
    void helpCommandPrintsTheNamedCommandsUsage(List<String> path) {
        assertUsageOf(path, svc(List.of("help"), path.toArray(String[]::new)));
    }

    @Test
    void aGroupAloneListsItsSubcommands() {
        CliRun run = svc(List.of("nodes"));
        assertUsageOf(List.of("nodes"), run);
        assertTrue(run.out().contains("Commands:") && run.out().contains("approve-routes"), run.out());
        assertUsageOf(List.of("derp", "relay"), svc(List.of("derp", "relay")));
        assertUsageOf(List.of(), svc(List.of()));
    }

    @Test
    void usageErrorsExitWithTwo() {
        CliRun unknownOption = svc(List.of("apikeys", "--frob"));
        assertEquals(2, unknownOption.exitCode(), unknownOption.toString());
        assertEquals("svc: Unknown option: '--frob'\nTry 'svc apikeys --help' for usage.\n", unknownOption.err());

        CliRun unknownCommand = svc(List.of("help", "nodes", "frob"));
        assertEquals(2, unknownCommand.exitCode(), unknownCommand.toString());
        assertTrue(unknownCommand.err().startsWith("svc: unknown command 'svc nodes frob'\n"), unknownCommand.err());

        CliRun missingOption = svc(List.of("users", "create"));
        assertEquals(2, missingOption.exitCode(), missingOption.toString());
    }
}
