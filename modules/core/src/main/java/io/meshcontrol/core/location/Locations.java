package io.meshcontrol.core.location;

import io.meshcontrol.core.MeshException;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The location database in force ({@code policy.geoip_database}), replaced when its file is reloaded. Readers take
 * {@link #current()} once and use that instance throughout, so one compilation never mixes two databases.
 */
public final class Locations {

    private static final System.Logger LOG = System.getLogger(Locations.class.getName());

    private final Path file;
    private volatile GeoDatabase current;

    private Locations(Path file, GeoDatabase current) {
        this.file = file;
        this.current = current;
    }

    /** No database: nobody has a location. */
    public static Locations none() {
        return new Locations(null, GeoDatabase.NONE);
    }

    /**
     * The database in {@code file}, or none without one.
     *
     * @throws MeshException when the file cannot be read as a database
     */
    public static Locations open(Optional<Path> file) {
        return file.map(path -> new Locations(path, GeoDatabase.open(path))).orElseGet(Locations::none);
    }

    public GeoDatabase current() {
        return current;
    }

    public Optional<Path> file() {
        return Optional.ofNullable(file);
    }

    /**
     * Reads the file again (what SIGHUP asks for). A file that cannot be read leaves the database in force, with an
     * error in the log.
     *
     * @return whether a new database is in force
     */
    public synchronized boolean reload() {
        if (file == null) {
            return false;
        }
        try {
            current = GeoDatabase.open(file);
        } catch (MeshException e) {
            LOG.log(Level.ERROR, "policy.geoip_database not reloaded, the previous database stays in force: "
                    + e.getMessage());
            return false;
        }
        LOG.log(Level.INFO, "location database reloaded: " + current);
        return true;
    }
}
