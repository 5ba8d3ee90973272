package io.meshcontrol.core.location;

import com.maxmind.db.Reader;
import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.net.IpAddress;
import io.meshcontrol.core.net.IpAddressPort;
import io.meshcontrol.core.net.PublicAddresses;
import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One MaxMind-format database file (GeoLite2/GeoIP2 Country or City, or any database with the same
 * {@code country.iso_code} and {@code city.names.en} fields), read with MaxMind's reader. Immutable once opened;
 * a newer file is a new instance ({@link Locations}).
 */
public final class GeoDatabase {

    /** No database: places nobody. */
    public static final GeoDatabase NONE = new GeoDatabase(null, null);

    private final Reader reader;
    private final Path file;

    private GeoDatabase(Reader reader, Path file) {
        this.reader = reader;
        this.file = file;
    }

    /**
     * Opens and checks the file: it must be a MaxMind-format database whose records carry a country.
     *
     * @throws MeshException (invalid) naming the file and what is wrong with it
     */
    public static GeoDatabase open(Path file) {
        try {
            // Memory-mapped; a replaced database is never closed but left to the collector, so that lookups still
            // running on it finish.
            Reader reader = new Reader(file.toFile());
            String type = reader.getMetadata().databaseType();
            if (type == null || !(type.contains("Country") || type.contains("City"))) {
                throw MeshException.invalid("cannot use " + file + ": database type \"" + type
                        + "\" has no countries (want a GeoIP2/GeoLite2 Country or City database)");
            }
            return new GeoDatabase(reader, file);
        } catch (IOException | RuntimeException e) {
            if (e instanceof MeshException mesh) {
                throw mesh;
            }
            throw MeshException.invalid("cannot read " + file + " as a MaxMind-format database: "
                    + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()));
        }
    }

    public Optional<Path> file() {
        return Optional.ofNullable(file);
    }

    /** Where the address is, or empty when it is not public or the database has no country for it. */
    public Optional<Location> locate(IpAddress address) {
        if (reader == null || !PublicAddresses.isPublic(address)) {
            return Optional.empty();
        }
        Map<?, ?> record;
        try {
            record = reader.get(InetAddress.getByAddress(address.bytes()), Map.class);
        } catch (UnknownHostException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new IllegalStateException("location database " + file + " cannot be read: " + e.getMessage(), e);
        }
        if (record == null) {
            return Optional.empty();
        }
        String country = text(record, "country", "iso_code");
        if (country == null) {
            country = text(record, "registered_country", "iso_code");
        }
        if (country == null) {
            return Optional.empty();
        }
        return Optional.of(new Location(country, text(record, "city", "names", "en"), address.toString()));
    }

    /**
     * Where a machine is, by the endpoints it reports ({@code ip:port}, in its order): the first public one the
     * database places. Empty when none is public or placed.
     */
    public Optional<Location> locate(List<String> endpoints) {
        if (reader == null) {
            return Optional.empty();
        }
        for (String endpoint : endpoints) {
            IpAddress address;
            try {
                address = IpAddressPort.parse(endpoint).address();
            } catch (IllegalArgumentException e) {
                continue;
            }
            Optional<Location> location = locate(address);
            if (location.isPresent()) {
                return location;
            }
        }
        return Optional.empty();
    }

    private static String text(Map<?, ?> record, String... path) {
        Object value = record;
        for (String key : path) {
            if (!(value instanceof Map<?, ?> map)) {
                return null;
            }
            value = map.get(key);
        }
        return value instanceof String text && !text.isEmpty() ? text : null;
    }

    @Override
    public String toString() {
        return reader == null ? "no location database"
                : file + " (" + reader.getMetadata().databaseType() + ", built " + reader.getMetadata().buildTime() + ")";
    }
}
