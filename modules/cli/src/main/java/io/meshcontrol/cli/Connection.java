package io.meshcontrol.cli;

import io.meshcontrol.api.ClientSettings;
import io.meshcontrol.api.LocalServerNotFoundException;
import io.meshcontrol.api.MeshClient;
import io.meshcontrol.core.GoDuration;
import io.meshcontrol.core.config.ConfigFileLocator;
import io.meshcontrol.core.config.ConfigRequest;
import java.nio.file.Path;
import java.util.stream.Collectors;

/**
 * Which server a management command talks to, decided from the {@code cli} section of the configuration file
 * alone (the server's settings are not read, so one wrong server key cannot stop the CLI): with {@code cli.address}
 * set (file or {@code SVC_CLI_ADDRESS}) it is that remote server with {@code cli.api_key}; otherwise it is the server
 * running on this machine, found through the credential file it leaves.
 */
final class Connection {

    private Connection() {
    }

    static MeshClient open(RootCommand root) {
        CliContext context = root.context;
        ConfigRequest request = root.configRequest();
        ConfigFileLocator.Located located = root.configFile();
        ClientSettings settings = ClientSettings.read(located.file(), context.env(), request.workingDir(),
                context.homeDir(), GoDuration::parse);
        try {
            return root.opened(settings.open(Svc.version(), warning -> context.note("svc: warning: " + warning)));
        } catch (LocalServerNotFoundException e) {
            throw new CliException(e.getMessage() + "; " + configChecked(request, located)
                    + ". Start one with '" + context.commandName() + " serve', or set cli.address and cli.api_key to"
                    + " manage a remote server");
        }
    }

    /** The {@code cli} settings of the configuration file the command line names or the first one found. */
    static ClientSettings settings(RootCommand root) {
        return ClientSettings.read(root.configFile().file(), root.context.env(), root.configRequest().workingDir(),
                root.context.homeDir(), GoDuration::parse);
    }

    /** Which configuration file the credential location came from, or where none was found. */
    private static String configChecked(ConfigRequest request, ConfigFileLocator.Located located) {
        return located.file().map(file -> "configuration " + file)
                .orElseGet(() -> "no configuration file (looked for " + ConfigFileLocator.candidates(request).stream()
                        .map(Path::toString).collect(Collectors.joining(", ")) + ")");
    }
}
