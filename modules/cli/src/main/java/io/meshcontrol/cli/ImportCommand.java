package io.meshcontrol.cli;

import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.config.ConfigLoader;
import io.meshcontrol.core.config.LoadedConfig;
import io.meshcontrol.core.config.MeshConfig;
import io.meshcontrol.core.importing.headscale.HeadscaleImport;
import io.meshcontrol.core.key.MachinePrivateKey;
import io.meshcontrol.core.net.IpAddress;
import io.meshcontrol.core.net.IpPrefix;
import io.meshcontrol.core.state.Network;
import io.meshcontrol.core.state.NetworkOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;

@Command(name = "import", description = "Move another control server's network into this one (offline, before "
        + "`svc serve`).", subcommands = ImportCommand.Headscale.class)
final class ImportCommand extends CommandGroup {

    /** Gives {@code svc import headscale} its own {@code --config} (headscale's file) in place of the inherited one. */
    static void ownConfigOption(CommandLine root) {
        CommandLine importCommand = root.getSubcommands().get("import");
        CommandLine headscale = importCommand == null ? null : importCommand.getSubcommands().get("headscale");
        if (headscale == null) {
            return;
        }
        CommandSpec spec = headscale.getCommandSpec();
        OptionSpec inherited = spec.findOption("--config");
        if (inherited != null && inherited.inherited()) {
            spec.remove(inherited);
            Headscale command = headscale.getCommand();
            spec.addOption(OptionSpec.builder("--config").paramLabel("<headscale config.yaml>").type(Path.class)
                    .description("headscale's config.yaml: its settings are mapped onto svc's and printed, and its "
                            + "Noise key is imported. svc's own configuration is named before the command: "
                            + "svc -c <svc config> import headscale ...")
                    .setter(new CommandLine.Model.ISetter() {
                        @Override
                        @SuppressWarnings("unchecked")
                        public <T> T set(T value) {
                            T old = (T) command.headscaleConfig;
                            command.headscaleConfig = (Path) value;
                            return old;
                        }
                    }).build());
        }
    }

    @Command(name = "headscale", description = {
            "Import a stopped headscale (0.27 to 0.29) into this server's empty network: users with their OIDC "
                    + "identities, machines with their keys, addresses, tags and routes, pre-auth keys, the policy, "
                    + "and headscale's Noise key, so that machines reconnect without logging in again. Prints "
                    + "what it imports, every problem, what is not carried, and svc's configuration made from "
                    + "headscale's. See docs/migrating-from-headscale.md."})
    static final class Headscale extends Subcommand implements Callable<Integer> {

        @Option(names = "--db", required = true, paramLabel = "<sqlite file>",
                description = "headscale's SQLite database (database.sqlite.path); PostgreSQL is not supported yet")
        String database;

        /** Set through the option {@link #ownConfigOption} adds. */
        Path headscaleConfig;

        @Option(names = "--policy", paramLabel = "<file>",
                description = "Policy file to import instead of the one headscale used")
        Path policy;

        @Option(names = "--dry-run", description = "Print what would be imported and every problem; change nothing."
                + " Exit code 1 when something blocks the import.")
        boolean dryRun;

        @Option(names = "--write-config", paramLabel = "<file>",
                description = "Write svc's configuration made from headscale's to this file instead of printing it")
        Path writeConfig;

        @Override
        public Integer call() throws IOException {
            CliContext context = context();
            HeadscaleImport.Plan plan = HeadscaleImport.plan(database, headscaleConfig, policy);
            root().configFile();
            LoadedConfig loaded = ConfigLoader.load(root().configRequest());
            if (!loaded.valid()) {
                loaded.errors().forEach(problem -> context.note("svc: config: " + problem));
                throw new CliException("svc's configuration is not valid (" + context.commandName()
                        + " configtest lists every problem)");
            }
            MeshConfig config = loaded.config();
            if (config.database().type() == MeshConfig.Database.Type.POSTGRES) {
                // The import writes svc's SQLite file; svc db migrate moves the result (docs/storage.md).
                throw new CliException("svc's database.type is postgres: import into SQLite (database.type: sqlite), "
                        + "then move the network with " + context.commandName() + " db migrate");
            }
            Path databaseFile = config.database().sqlite().path();
            plan.summary().forEach(line -> context.line("import: " + line));
            plan.problems().forEach(p -> context.line((p.blocker() ? "blocker: " : "warning: ") + p.text()));
            plan.notCarried().forEach(line -> context.line("not carried: " + line));
            outsidePrefixes(plan, config).forEach(line -> context.line("warning: " + line));
            if (plan.contents().policy() != null && config.policy().mode() == MeshConfig.Policy.Mode.FILE) {
                context.line("warning: svc's policy.mode is file: the imported policy is saved in the database, "
                        + "but the server reads " + config.policy().path().map(Object::toString).orElse("policy.path")
                        + " (set policy.mode: database, or put the policy in that file)");
            }
            String notEmpty = Files.exists(databaseFile) ? notEmptyReason(config) : null;
            if (notEmpty != null) {
                context.line("blocker: " + notEmpty);
            }
            if (!plan.configYaml().isEmpty()) {
                if (writeConfig != null && !dryRun) {
                    Files.writeString(writeConfig, plan.configYaml());
                    context.line("svc configuration made from headscale's written to " + writeConfig);
                } else {
                    context.line("--- svc configuration made from headscale's (review it):");
                    plan.configYaml().lines().forEach(context::line);
                }
            }
            boolean blocked = plan.blocked() || notEmpty != null;
            if (dryRun) {
                context.line(blocked ? "dry run: the import is blocked (see the blockers above); nothing was changed"
                        : "dry run: nothing was changed; run the same command without --dry-run to import");
                return blocked ? Svc.FAILED : 0;
            }
            if (blocked) {
                throw new CliException("nothing imported: fix the blockers above (--dry-run shows them again)");
            }
            try (Imported network = new Imported(Network.open(config.database().sqlite(), Clock.systemUTC(),
                    NetworkOptions.from(config), Network.SqlLog.OFF))) {
                network.value().networkImport().apply(Caller.localAdmin(), plan.contents());
            }
            if (plan.noiseKey().isPresent()) {
                storeNoiseKey(context, plan.noiseKey().get(), config.noise().privateKeyPath());
            }
            context.line("imported into " + databaseFile + "; stop headscale for good and start "
                    + context.commandName() + " serve on headscale's server_url: machines reconnect by themselves");
            return 0;
        }

        /** Addresses svc's prefixes do not hold: its address pool would not know them as taken. */
        private static java.util.List<String> outsidePrefixes(HeadscaleImport.Plan plan, MeshConfig config) {
            java.util.List<String> lines = new java.util.ArrayList<>();
            for (io.meshcontrol.core.model.Node node : plan.contents().nodes()) {
                for (String[] address : new String[][] {{node.ipv4(), config.prefixes().v4(), "v4"},
                        {node.ipv6(), config.prefixes().v6(), "v6"}}) {
                    if (address[0] != null && address[1] != null && !address[1].isEmpty() && !IpPrefix.parse(address[1])
                            .contains(IpPrefix.single(IpAddress.parse(address[0])))) {
                        lines.add("node " + node.id() + " " + node.givenName() + ": " + address[0]
                                + " is outside svc's prefixes." + address[2] + " (" + address[1]
                                + "); set prefixes as the configuration made from headscale's does");
                    }
                }
            }
            return lines;
        }

        private static String notEmptyReason(MeshConfig config) {
            try (Imported network = new Imported(Network.open(config.database().sqlite(), Clock.systemUTC(),
                    NetworkOptions.from(config), Network.SqlLog.OFF))) {
                return network.value().networkImport().notEmptyReason();
            }
        }

        /** The server's Noise key becomes headscale's; a different one it had is kept beside it. */
        private static void storeNoiseKey(CliContext context, MachinePrivateKey key, Path file) throws IOException {
            if (Files.exists(file)) {
                MachinePrivateKey old = MachinePrivateKey.load(file);
                if (old.publicKey().equals(key.publicKey())) {
                    return;
                }
                Path kept = file.resolveSibling(file.getFileName() + ".before-import");
                Files.move(file, kept, StandardCopyOption.REPLACE_EXISTING);
                context.line("svc's previous Noise key moved to " + kept);
            }
            key.store(file);
            context.line("headscale's Noise key (" + key.publicKey().toText() + ") is now svc's, in " + file);
        }
    }

    /** Closes the network the command opened. */
    private record Imported(Network value) implements AutoCloseable {
        @Override
        public void close() {
            value.close();
        }
    }
}
