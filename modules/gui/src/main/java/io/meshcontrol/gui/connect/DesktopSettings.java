package io.meshcontrol.gui.connect;

import io.meshcontrol.api.ApiJson;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * What the app remembers in the user's configuration folder: the saved servers, the last one used, the window's size
 * and theme ({@code desktop.json}), and each remote server's API key in a file of its own under {@code keys/} that
 * only the user can read (folder 0700, files 0600 from their first byte, as the server's own secrets). Written
 * whole through a temporary file, so a crash leaves the old file.
 */
public final class DesktopSettings {

    private static final JsonMapper JSON = ApiJson.mapper(false);
    private static final String FILE = "desktop.json";

    /** The file's content. */
    /**
     * @param columns the widths a user gave table columns: by table id, then column title (absent from files of
     *     earlier versions)
     */
    public record Stored(List<Profile> profiles, String lastProfile, Double width, Double height, String theme,
            java.util.Map<String, java.util.Map<String, Double>> columns) {

        public Stored {
            profiles = profiles == null ? List.of() : List.copyOf(profiles);
            columns = columns == null ? java.util.Map.of() : java.util.Map.copyOf(columns);
        }

        public Stored(List<Profile> profiles, String lastProfile, Double width, Double height, String theme) {
            this(profiles, lastProfile, width, height, theme, null);
        }
    }

    private final Path folder;
    private Stored stored;

    private DesktopSettings(Path folder, Stored stored) {
        this.folder = folder;
        this.stored = stored;
    }

    /** Reads the settings in {@code folder}; none yet (or a file that cannot be read) is a fresh start. */
    public static DesktopSettings in(Path folder) {
        Stored stored;
        try {
            stored = JSON.readValue(Files.readAllBytes(folder.resolve(FILE)), Stored.class);
        } catch (NoSuchFileException e) {
            stored = new Stored(List.of(), null, null, null, null);
        } catch (IOException | JacksonException e) {
            // A damaged file costs the saved list, not the app; the keys stay in their files.
            stored = new Stored(List.of(), null, null, null, null);
        }
        return new DesktopSettings(folder, stored);
    }

    public Path folder() {
        return folder;
    }

    public Stored stored() {
        return stored;
    }

    /** The saved servers: this machine's first, then the remote ones in the order they were added. */
    public List<Profile> profiles() {
        List<Profile> all = new ArrayList<>();
        all.add(Profile.local());
        stored.profiles().stream().filter(profile -> !profile.isLocal()).forEach(all::add);
        return all;
    }

    /** Saves a server (replacing one of the same name) and its key, and remembers it as the last one used. */
    public void remember(Profile profile, String apiKey) {
        List<Profile> profiles = new ArrayList<>(stored.profiles());
        profiles.removeIf(saved -> saved.name().equals(profile.name()));
        if (!profile.isLocal()) {
            profiles.add(profile);
            writeSecret(keyFile(profile.name()), apiKey);
        }
        update(new Stored(profiles, profile.name(), stored.width(), stored.height(), stored.theme(),
                stored.columns()));
    }

    public void forget(String name) {
        List<Profile> profiles = new ArrayList<>(stored.profiles());
        profiles.removeIf(saved -> saved.name().equals(name));
        try {
            Files.deleteIfExists(keyFile(name));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        update(new Stored(profiles, name.equals(stored.lastProfile()) ? null : stored.lastProfile(), stored.width(),
                stored.height(), stored.theme(), stored.columns()));
    }

    /** The saved API key of a remote server; empty when none was saved or the file is gone. */
    public Optional<String> apiKey(String name) {
        try {
            return Optional.of(Files.readString(keyFile(name), StandardCharsets.UTF_8).strip());
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    public void window(double width, double height, String theme) {
        update(new Stored(stored.profiles(), stored.lastProfile(), width, height, theme, stored.columns()));
    }

    /** The column widths a user set in the table {@code table} (by column title); empty when none. */
    public java.util.Map<String, Double> columnWidths(String table) {
        return stored.columns().getOrDefault(table, java.util.Map.of());
    }

    /** Remembers the widths a user set in the table {@code table}. */
    public void columnWidths(String table, java.util.Map<String, Double> widths) {
        java.util.Map<String, java.util.Map<String, Double>> columns = new java.util.TreeMap<>(stored.columns());
        columns.put(table, java.util.Map.copyOf(widths));
        update(new Stored(stored.profiles(), stored.lastProfile(), stored.width(), stored.height(), stored.theme(),
                columns));
    }

    /** Where a server's key is kept: its name in hex, so any name makes a safe file name. */
    public Path keyFile(String name) {
        return folder.resolve("keys").resolve(HexFormat.of().formatHex(name.getBytes(StandardCharsets.UTF_8)) + ".key");
    }

    private void update(Stored next) {
        writeSecret(folder.resolve(FILE), JSON.writerWithDefaultPrettyPrinter().writeValueAsString(next));
        stored = next;
    }

    /** Writes a file readable by its owner only, in owner-only folders, replacing the old one in one step. */
    private static void writeSecret(Path file, String content) {
        try {
            Files.createDirectories(file.getParent(),
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            Path temporary = file.resolveSibling(file.getFileName() + ".tmp");
            Files.deleteIfExists(temporary);
            Files.createFile(temporary, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            Files.writeString(temporary, content, StandardCharsets.UTF_8);
            try {
                Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }
}
