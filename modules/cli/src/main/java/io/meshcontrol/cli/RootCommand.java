package io.meshcontrol.cli;

import io.meshcontrol.api.MeshClient;
import io.meshcontrol.core.config.ConfigFileLocator;
import io.meshcontrol.core.config.ConfigRequest;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "svc",
        mixinStandardHelpOptions = true,
        versionProvider = VersionCommand.Provider.class,
        description = "Mesh Control: a control server for one private mesh network of Tailscale clients.")
final class RootCommand extends CommandGroup {

    final CliContext context;

    @Option(names = {"-c", "--config"}, scope = picocli.CommandLine.ScopeType.INHERIT,
            description = "Configuration file (default: SVC_CONFIG, else config.yaml in the working directory, "
                    + "$HOME/.svc or /etc/svc)")
    Path config;

    /** The clients the command line opened ({@link Connection#open}), closed when it ends ({@link Svc#run}). */
    private final List<MeshClient> clients = new ArrayList<>();

    RootCommand(CliContext context) {
        this.context = context;
    }

    MeshClient opened(MeshClient client) {
        clients.add(client);
        return client;
    }

    void closeClients() {
        clients.forEach(MeshClient::close);
        clients.clear();
    }

    /** What the configuration is looked up and loaded from: {@code -c}, the environment, the folders. */
    ConfigRequest configRequest() {
        return new ConfigRequest(config, context.env(), context.workingDir(), context.homeDir());
    }

    /**
     * The configuration file to read, if any.
     *
     * @throws CliException when the file named by {@code -c} or {@code SVC_CONFIG} is missing: the one error then,
     *                      as nothing else can be checked without it
     */
    ConfigFileLocator.Located configFile() {
        ConfigFileLocator.Located located = ConfigFileLocator.locate(configRequest());
        located.problem().ifPresent(problem -> {
            throw new CliException("config: " + problem);
        });
        return located;
    }
}
