package io.meshcontrol.cli;

import java.util.Arrays;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The picocli command tree for one command line. picocli builds its model of a command by reflection over its
 * annotations, and its own classes (compiled for Java 5) cannot be kept in the class-data archive: the model of the
 * whole tree was most of a client command's own start-up (docs/performance.md, "CLI start-up"). A command line that
 * names a top-level command therefore gets only that command below the root. Every other line (no command, an
 * option before the command, a word that names none, {@code svc help}) gets the whole tree, so that usage,
 * suggestions and errors at the root are the whole tree's; below its command, a line is parsed by the same model
 * either way.
 */
final class CommandTree {

    /** The top-level commands, in the order {@code svc --help} lists them. */
    static final List<Class<?>> COMMANDS = List.of(
            ServeCommand.class,
            ConfigtestCommand.class,
            VersionCommand.class,
            UsersCommand.class,
            ApiKeysCommand.class,
            PreAuthKeysCommand.class,
            OAuthClientsCommand.class,
            WebhooksCommand.class,
            NodesCommand.class,
            AccessRequestsCommand.class,
            AppsCommand.class,
            SettingsCommand.class,
            LockCommand.class,
            AuditCommand.class,
            AuthCommand.class,
            PolicyCommand.class,
            DerpCommand.class,
            DebugCommand.class,
            AdminCommand.class,
            DbCommand.class,
            ImportCommand.class,
            HelpCommand.class);

    private CommandTree() {
    }

    /** The whole tree: every command at every depth. */
    static CommandLine whole(CliContext context) {
        return build(context, COMMANDS);
    }

    /** The tree that parses {@code args} as the whole tree would. */
    static CommandLine forArgs(CliContext context, String... args) {
        return build(context, commandsFor(args));
    }

    /**
     * The top-level commands {@code args} needs: the one its first word names when only {@code -c FILE} comes
     * before that word, else all of them.
     */
    static List<Class<?>> commandsFor(String... args) {
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (arg.equals("-c") || arg.equals("--config")) {
                i++;
            } else if (!arg.startsWith("--config=") && !arg.startsWith("-c")) {
                return arg.startsWith("-") ? COMMANDS : named(arg);
            }
        }
        return COMMANDS;
    }

    private static List<Class<?>> named(String word) {
        for (Class<?> command : COMMANDS) {
            Command annotation = command.getAnnotation(Command.class);
            boolean names = annotation.name().equals(word) || Arrays.asList(annotation.aliases()).contains(word);
            if (names) {
                // svc help looks the named command up in the tree
                return annotation.helpCommand() ? COMMANDS : List.of(command);
            }
        }
        return COMMANDS;
    }

    private static CommandLine build(CliContext context, List<Class<?>> commands) {
        CommandLine root = new CommandLine(new RootCommand(context));
        commands.forEach(root::addSubcommand);
        return root;
    }
}
