package io.meshcontrol.core;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Files that hold secrets (the database, private keys, certificates' keys) and the folders the server makes for
 * them: created readable and writable by the server's account only (0600, folders 0700), whatever the umask. The mode
 * is given at creation, so no other account can open the file in between, and set again afterwards, since the umask
 * could have taken bits away. On a file system without POSIX permissions the folder's access rules protect them.
 */
public final class OwnerOnlyFiles {

    public static final Set<PosixFilePermission> FILE = PosixFilePermissions.fromString("rw-------");
    public static final Set<PosixFilePermission> FOLDER = PosixFilePermissions.fromString("rwx------");

    private OwnerOnlyFiles() {
    }

    /** Creates {@code folder} and its missing parents as 0700; folders that exist are left as they are. */
    public static void createFolders(Path folder) throws IOException {
        Path absolute = folder.toAbsolutePath();
        List<Path> missing = new ArrayList<>();
        for (Path p = absolute; p != null && !Files.exists(p); p = p.getParent()) {
            missing.addFirst(p);
        }
        for (Path p : missing) {
            try {
                Files.createDirectory(p, attributes(p.getParent(), FOLDER));
                restrict(p, FOLDER);
            } catch (FileAlreadyExistsException e) {
                // made by someone else meanwhile
            }
        }
        if (!Files.isDirectory(absolute)) {
            throw new IOException(absolute + " is not a folder");
        }
    }

    /** Creates {@code file} empty and 0600 (and its folders 0700) unless it exists; an existing file is left alone. */
    public static void createFile(Path file) throws IOException {
        Path absolute = file.toAbsolutePath();
        createFolders(absolute.getParent());
        try {
            Files.createFile(absolute, attributes(absolute.getParent(), FILE));
            restrict(absolute, FILE);
        } catch (FileAlreadyExistsException e) {
            // kept as it is
        }
    }

    /**
     * Replaces {@code file} with {@code bytes} at once: a 0600 temporary file beside it, written and forced to disk,
     * then moved over it, so that a crash leaves the old file or the new one, never half of one.
     */
    public static void write(Path file, byte[] bytes) throws IOException {
        Path absolute = file.toAbsolutePath();
        Path folder = absolute.getParent();
        createFolders(folder);
        Path temporary = Files.createTempFile(folder, "." + absolute.getFileName(), ".tmp", attributes(folder, FILE));
        try {
            restrict(temporary, FILE);
            try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.WRITE)) {
                ByteBuffer buffer = ByteBuffer.wrap(bytes);
                while (buffer.hasRemaining()) {
                    channel.write(buffer);
                }
                channel.force(true);
            }
            Files.move(temporary, absolute, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(temporary);
        }
    }

    private static boolean posix(Path existingFolder) throws IOException {
        return Files.getFileStore(existingFolder).supportsFileAttributeView("posix");
    }

    private static FileAttribute<?>[] attributes(Path existingFolder, Set<PosixFilePermission> mode) throws IOException {
        return existingFolder != null && posix(existingFolder)
                ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(mode)}
                : new FileAttribute<?>[0];
    }

    private static void restrict(Path path, Set<PosixFilePermission> mode) throws IOException {
        if (posix(path)) {
            Files.setPosixFilePermissions(path, mode);
        }
    }
}
