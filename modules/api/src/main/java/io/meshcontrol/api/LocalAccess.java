package io.meshcontrol.api;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import tools.jackson.databind.json.JsonMapper;

/**
 * The credential a running server leaves for the CLI on its own machine: where the server listens and a
 * token that grants full access over loopback. The file is readable by its owner only, so only the
 * account that runs the server (or root) can use the local CLI without an API key.
 */
public record LocalAccess(String url, String token) {

    private static final JsonMapper JSON = ApiJson.mapper(false);

    public static LocalAccess read(Path file) throws IOException {
        return JSON.readValue(Files.readAllBytes(file), LocalAccess.class);
    }

    /** Writes the file owner-only from its first byte (no window in which others could read it). */
    public void write(Path file) throws IOException {
        Path absolute = file.toAbsolutePath();
        Files.createDirectories(absolute.getParent());
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
