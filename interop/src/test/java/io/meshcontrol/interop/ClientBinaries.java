package io.meshcontrol.interop;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Where the binaries of one pinned version are: {@code <clients dir>/<version>/bin}, the clients dir being
 * system property {@code svc.clients.dir}, else environment variable {@code SVC_CLIENTS_DIR}, else
 * {@code <repo>/.tools/clients} (what interop/install-clients.sh fills). A missing binary fails the test
 * with instructions; it never skips it, so a CI machine without clients cannot pass by accident.
 */
public record ClientBinaries(ClientVersion version, Path binDir) {

    static final List<String> NAMES = List.of("tailscaled", "tailscale", "derper", "derpprobe");

    /** The binaries of {@code version} in the configured clients dir; throws if any is missing. */
    public static ClientBinaries of(ClientVersion version) {
        return in(clientsDir(), version);
    }

    /** The binaries of {@code version} under {@code clientsDir}; throws if any is missing. */
    public static ClientBinaries in(Path clientsDir, ClientVersion version) {
        Path binDir = clientsDir.resolve(version.version()).resolve("bin");
        for (String name : NAMES) {
            Path binary = binDir.resolve(name);
            if (!Files.isExecutable(binary)) {
                throw new IllegalStateException(name + " " + version.version() + " is not installed (no executable "
                        + binary + "). Install the pinned Tailscale clients with interop/install-clients.sh"
                        + " (needs Go; see docs/supported-clients.md), or point -Dsvc.clients.dir / SVC_CLIENTS_DIR"
                        + " at a directory holding <version>/bin/{" + String.join(",", NAMES) + "}.");
            }
        }
        return new ClientBinaries(version, binDir);
    }

    /** The configured clients dir, whether or not it exists. */
    public static Path clientsDir() {
        String configured = System.getProperty("svc.clients.dir");
        if (configured == null || configured.isBlank()) {
            configured = System.getenv("SVC_CLIENTS_DIR");
        }
        if (configured != null && !configured.isBlank()) {
            return Path.of(configured).toAbsolutePath();
        }
        return ClientVersions.repositoryRoot().resolve(".tools/clients");
    }

    public Path tailscaled() {
        return binDir.resolve("tailscaled");
    }

    public Path tailscale() {
        return binDir.resolve("tailscale");
    }

    public Path derper() {
        return binDir.resolve("derper");
    }

    public Path derpprobe() {
        return binDir.resolve("derpprobe");
    }
}
