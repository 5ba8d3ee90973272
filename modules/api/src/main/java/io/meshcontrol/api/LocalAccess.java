package io.meshcontrol.api;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.json.JsonMapper;

/**
 * The credential a running server leaves for the CLI on its own machine: where the server listens and a
 * token that grants full access over loopback. The file is readable by its owner only, so only the
 * account that runs the server (or root) can use the local CLI without an API key.
 */
public record LocalAccess(String url, String token) {

    private static final JsonMapper JSON = ApiJson.mapper(false);
    private static final String FILE_NAME = "cli-credential.json";

    /**
     * Where a server leaves its credential unless {@code cli.local_credential_path} says otherwise, and so where a
     * client on the same machine looks: the same place whatever the working directory. For the account that runs
     * the server: {@code $XDG_RUNTIME_DIR/svc/} (a per-user folder that the login session owns and empties at logout),
     * else {@code $XDG_STATE_HOME/svc/}, else {@code ~/.local/state/svc/}.
     *
     * @param env  the environment ({@code XDG_RUNTIME_DIR}, {@code XDG_STATE_HOME})
     * @param home the account's home folder
     */
    public static Path defaultLocation(Map<String, String> env, Path home) {
        Optional<Path> runtime = absolute(env.get("XDG_RUNTIME_DIR"));
        Path folder = runtime.or(() -> absolute(env.get("XDG_STATE_HOME")))
                .orElseGet(() -> home.resolve(".local").resolve("state"));
        return folder.resolve("svc").resolve(FILE_NAME);
    }

    /** {@link #defaultLocation(Map, Path)} for this process's environment and account. */
    public static Path defaultLocation() {
        return defaultLocation(System.getenv(), Path.of(System.getProperty("user.home")));
    }

    /** The XDG variables count only when set to an absolute path (the specification says to ignore others). */
    private static Optional<Path> absolute(String value) {
        if (value == null || value.isEmpty()) {
            return Optional.empty();
        }
        Path path = Path.of(value);
        return path.isAbsolute() ? Optional.of(path) : Optional.empty();
    }

    public static LocalAccess read(Path file) throws IOException {
        return JSON.readValue(Files.readAllBytes(file), LocalAccess.class);
    }

    /** Writes the file owner-only from its first byte (no window in which others could read it). */
    public void write(Path file) throws IOException {
        Path absolute = file.toAbsolutePath();
        if (!Files.isDirectory(absolute.getParent())) {
            // A folder of its own is owner-only too: nobody else needs to see that a server runs here.
            Files.createDirectories(absolute.getParent(),
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        }
        Path temporary = absolute.resolveSibling(absolute.getFileName() + ".tmp");
        Files.deleteIfExists(temporary);
        try {
            Files.createFile(temporary, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } catch (UnsupportedOperationException | FileAlreadyExistsException e) {
            throw new IOException("cannot create " + temporary + " with owner-only permissions", e);
        }
        Files.write(temporary, JSON.writeValueAsBytes(this), StandardOpenOption.TRUNCATE_EXISTING);
        Files.move(temporary, absolute, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }
}
