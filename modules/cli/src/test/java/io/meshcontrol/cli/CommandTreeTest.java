package io.meshcontrol.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

/** A command line that names a top-level command gets that command alone, parsed as in the whole tree. */
class CommandTreeTest {

    private static final CliContext CONTEXT = new CliContext(new PrintStream(new ByteArrayOutputStream()),
            new PrintStream(new ByteArrayOutputStream()), Map.of(), Path.of("."), Path.of("."));

    @Test
    void aNamedCommandIsBuiltAlone() {
        assertEquals(List.of(NodesCommand.class), CommandTree.commandsFor("nodes", "list", "-o", "json"));
        assertEquals(List.of(VersionCommand.class), CommandTree.commandsFor("version"));
    }

    @Test
    void theConfigOptionMayComeBeforeTheCommand() {
        assertEquals(List.of(UsersCommand.class), CommandTree.commandsFor("-c", "nodes", "users", "list"));
        assertEquals(List.of(UsersCommand.class), CommandTree.commandsFor("--config", "x.yaml", "users", "list"));
        assertEquals(List.of(UsersCommand.class), CommandTree.commandsFor("--config=x.yaml", "users", "list"));
        assertEquals(List.of(UsersCommand.class), CommandTree.commandsFor("-cx.yaml", "users", "list"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "--help", "-h -c x nodes", "-V", "-- nodes", "--bogus nodes", "help nodes list",
            "nodez", "NODES", "@args.txt", "-c"})
    void anyOtherLineGetsTheWholeTree(String line) {
        String[] args = line.isEmpty() ? new String[0] : line.split(" ");
        assertEquals(CommandTree.COMMANDS, CommandTree.commandsFor(args));
    }

    @Test
    void everyCommandBuiltAloneHasTheUsageAndOptionsOfTheWholeTree() {
        Map<String, CommandLine> whole = CommandTree.whole(CONTEXT).getSubcommands();
        for (Class<?> command : CommandTree.COMMANDS) {
            String name = command.getAnnotation(CommandLine.Command.class).name();
            CommandLine alone = CommandTree.forArgs(CONTEXT, name).getSubcommands().get(name);
            assertEquals(describe(whole.get(name)), describe(alone), name);
        }
    }

    /** The usage and option names of a command and of every command below it. */
    private static Map<String, String> describe(CommandLine command) {
        Map<String, String> described = new LinkedHashMap<>();
        described.put(command.getCommandSpec().qualifiedName(), command.getUsageMessage()
                + command.getCommandSpec().options().stream().map(o -> String.join("|", o.names())).toList());
        command.getSubcommands().values().forEach(sub -> described.putAll(describe(sub)));
        return described;
    }
}
