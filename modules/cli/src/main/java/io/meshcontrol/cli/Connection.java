package io.meshcontrol.cli;

import io.meshcontrol.api.LocalAccess;
import io.meshcontrol.api.MeshClient;
import io.meshcontrol.core.config.ConfigLoader;
import io.meshcontrol.core.config.ConfigRequest;
import io.meshcontrol.core.config.LoadedConfig;
import io.meshcontrol.core.config.MeshConfig;
import java.io.IOException;
import java.net.URI;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Which server a management command talks to. With {@code cli.address} set (file or
 * {@code SVC_CLI_ADDRESS}) it is that remote server with {@code cli.api_key}; otherwise it is the server
 * running on this machine, found through the credential file it leaves ({@code cli.local_credential_path}).
 */
final class Connection {

    private Connection() {
    }

    static MeshConfig config(RootCommand root) {
        CliContext context = root.context;
        LoadedConfig loaded = ConfigLoader.load(new ConfigRequest(root.config, context.env(), context.workingDir(),
                context.homeDir()));
        if (!loaded.valid()) {
            int more = loaded.errors().size() - 1;
            throw new CliException("invalid configuration: " + loaded.errors().getFirst()
                    + (more > 0 ? " (and " + more + " more; run 'svc configtest')" : ""));
        }
        return loaded.config();
    }

    static MeshClient open(RootCommand root) {
        MeshConfig config = config(root);
        CliContext context = root.context;
        Optional<URI> remote = config.cli().effectiveAddress();
        if (remote.isPresent()) {
            String apiKey = config.cli().apiKey().orElseThrow(() -> new CliException(
                    "cli.address is set to " + remote.get() + " but no API key is configured: set cli.api_key or SVC_CLI_API_KEY"));
            return client(context, remote.get(), apiKey, config.cli().insecure());
        }
        Path file = config.cli().localCredentialPath();
        LocalAccess access;
        try {
            access = LocalAccess.read(file);
        } catch (NoSuchFileException e) {
            throw new CliException("no server is running on this machine (" + file + " does not exist): start one with "
                    + "'svc serve', or set cli.address and cli.api_key to manage a remote server");
        } catch (IOException e) {
            throw new CliException("cannot read the local server credential " + file + ": " + e.getMessage()
                    + " (only the account that runs the server, or root, can use the local CLI without an API key)");
        }
        return client(context, URI.create(access.url()), access.token(), false);
    }

    private static MeshClient client(CliContext context, URI url, String token, boolean insecure) {
        return new MeshClient(url, token, insecure, Svc.version(), warning -> context.err().println("svc: warning: " + warning));
    }
}
