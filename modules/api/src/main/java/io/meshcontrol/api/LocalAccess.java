package io.meshcontrol.api;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.json.JsonMapper;

/**
 * The credential a running server leaves for the CLI on its own machine: where the server listens and a
 * token that grants full access over loopback. The file is readable by its owner only, so only the
 * account that runs the server (or root) can use the local CLI without an API key.
 *
 * <p>A server killed with SIGKILL cannot remove its file, and another program may take its port afterwards; so the
 * file also says which process wrote it and which run of the server it was, and a client sends the token only to
 * that run (see {@link ClientSettings#open}).
 *
 * @param pid      the server's process id; null in a file written by a server of an earlier version
 * @param started  when that process started, as the operating system reports it; with the pid it tells the server
 *                 from a process that was given the same pid later; null when the system does not report it
 * @param instance a random id of this run of the server, which it also states on {@code /version}
 *                 ({@link MeshClient#INSTANCE_HEADER}); null in a file of an earlier version
 */
public record LocalAccess(String url, String token, Long pid, Instant started, String instance) {

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

    /**
     * {@link #defaultLocation(Map, Path)} for this process's environment and home: {@code $HOME} when set, else the
     * account's ({@code user.home}), as the CLI decides it, so that server and CLI agree on the file.
     */
    public static Path defaultLocation() {
        Map<String, String> env = System.getenv();
        String home = env.getOrDefault("HOME", "");
        return defaultLocation(env, Path.of(home.isEmpty() ? System.getProperty("user.home") : home));
    }

    /** The XDG variables count only when set to an absolute path (the specification says to ignore others). */
    private static Optional<Path> absolute(String value) {
        if (value == null || value.isEmpty()) {
            return Optional.empty();
        }
        Path path = Path.of(value);
        return path.isAbsolute() ? Optional.of(path) : Optional.empty();
    }

    /** The credential of a server running in this process, which writes it. */
    public static LocalAccess ofThisProcess(String url, String token, String instance) {
        ProcessHandle self = ProcessHandle.current();
        return new LocalAccess(url, token, self.pid(), self.info().startInstant().orElse(null), instance);
    }

    /**
     * Whether the process that wrote this credential is still running: a live process has its pid and started when
     * the file says (to within a second: the system reports start times in clock ticks). False when the file names
     * no process.
     */
    public boolean writerRunning() {
        return pid != null && ProcessHandle.of(pid)
                .filter(ProcessHandle::isAlive)
                .filter(process -> started == null || process.info().startInstant()
                        .map(start -> Duration.between(start, started).abs().compareTo(Duration.ofSeconds(1)) <= 0)
                        .orElse(true))
                .isPresent();
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
