package io.meshcontrol.gui.connect;

import io.meshcontrol.api.ClientSettings;
import io.meshcontrol.api.MeshClient;
import io.meshcontrol.api.ServerInfo;
import io.meshcontrol.gui.screen.Failures.InvalidInputException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/** Opens a connection to a profile's server and proves the credential with one call ({@code GET /api/v1/server}). */
public final class Connector {

    private final String version;
    private final Path localCredential;

    /**
     * @param version         this program's version, sent to the server
     * @param localCredential where the server on this machine leaves its credential
     */
    public Connector(String version, Path localCredential) {
        this.version = version;
        this.localCredential = localCredential;
    }

    /** Blocking: runs in the background. */
    Connection open(Profile profile, String apiKey) {
        List<String> warnings = new CopyOnWriteArrayList<>();
        MeshClient client;
        if (profile.isLocal()) {
            // The same rules as the CLI: the token goes only to the run of the server that wrote the credential.
            client = new ClientSettings(Optional.empty(), Optional.empty(), false, localCredential,
                    "the local credential", ClientSettings.DEFAULT_TIMEOUT).open(version, warnings::add);
        } else {
            if (apiKey == null || apiKey.isBlank()) {
                throw new InvalidInputException("Enter an API key for " + profile.url()
                        + " (create one with 'svc apikeys create' on the server)");
            }
            client = new MeshClient(profile.url(), apiKey.strip(), profile.insecure(), version, warnings::add);
        }
        ServerInfo server = client.server();
        return new Connection(profile, client, server, List.copyOf(warnings));
    }
}
