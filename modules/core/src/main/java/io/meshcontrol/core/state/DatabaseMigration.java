package io.meshcontrol.core.state;

import io.meshcontrol.core.store.Database;
import io.meshcontrol.core.store.DatabaseCopy;
import io.meshcontrol.core.store.PostgresSettings;
import io.meshcontrol.core.store.StatementLogger;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * {@code svc db migrate}: moves a whole network from one database to another (SQLite to PostgreSQL or back), with the
 * server stopped. Both are migrated to this version's schema first; the target must be new (no SQLite file, or a
 * PostgreSQL database without tables), so nothing of another network is ever mixed in or overwritten.
 */
public final class DatabaseMigration {

    private static final StatementLogger QUIET = new StatementLogger(false, true, Duration.ZERO, false);
    private static final Set<String> URL_OPTIONS = Set.of("tls", "password_file");

    /** What was copied: every table, its rows and the checksum both sides agree on. */
    public record Copied(String table, long rows, String checksum) {
    }

    private DatabaseMigration() {
    }

    /**
     * @param from a SQLite file, or a {@code postgres://user@host:port/name?tls=...&password_file=...} URL
     * @param to the same forms; must be empty
     * @throws IllegalArgumentException with a message for the operator: a location that cannot be used
     * @throws IllegalStateException when the copy does not match its source (nothing is left half-copied)
     */
    public static List<Copied> migrate(String from, String to) {
        Location source = Location.parse(from);
        Location target = Location.parse(to);
        source.requireExisting();
        target.requireEmpty();
        try (Database in = source.open(); Database out = target.open()) {
            return DatabaseCopy.copy(in, out).stream()
                    .map(t -> new Copied(t.table(), t.rows(), t.checksum())).toList();
        }
    }

    /** A database named on the command line. Exactly one of the two is set. */
    private record Location(Path sqlite, PostgresSettings postgres, String shown) {

        static Location parse(String text) {
            if (text.startsWith("postgres://") || text.startsWith("postgresql://")) {
                return new Location(null, postgresUrl(text), text);
            }
            if (text.contains("://")) {
                throw new IllegalArgumentException(text + ": not a SQLite file or a postgres:// URL");
            }
            return new Location(Path.of(text), null, text);
        }

        void requireExisting() {
            if (sqlite != null && !Files.isRegularFile(sqlite)) {
                throw new IllegalArgumentException(shown + ": no such SQLite database");
            }
            if (postgres != null && Database.existingTables(postgres).isEmpty()) {
                throw new IllegalArgumentException(shown + ": the database has no tables: nothing to copy");
            }
        }

        void requireEmpty() {
            try {
                if (sqlite != null && Files.exists(sqlite) && Files.size(sqlite) > 0) {
                    throw new IllegalArgumentException(shown + " already exists: the target must be a new file");
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            if (postgres != null) {
                List<String> tables = Database.existingTables(postgres);
                if (!tables.isEmpty()) {
                    throw new IllegalArgumentException(shown + " is not empty (" + tables.size() + " tables, "
                            + String.join(", ", tables.subList(0, Math.min(3, tables.size())))
                            + (tables.size() > 3 ? ", ..." : "") + "): the target must be a new, empty database");
                }
            }
        }

        Database open() {
            return sqlite != null ? Database.open(sqlite, true, Database.DEFAULT_WAL_AUTOCHECKPOINT, QUIET)
                    : Database.open(postgres, QUIET);
        }

        private static PostgresSettings postgresUrl(String text) {
            URI uri;
            try {
                uri = new URI(text);
            } catch (URISyntaxException e) {
                throw new IllegalArgumentException(text + ": " + e.getMessage());
            }
            if (uri.getHost() == null || uri.getRawUserInfo() == null || uri.getPath() == null
                    || uri.getPath().length() < 2) {
                throw new IllegalArgumentException(text + ": expected postgres://user@host[:port]/database");
            }
            if (uri.getRawUserInfo().contains(":")) {
                throw new IllegalArgumentException(text + ": put the password in a file and name it with "
                        + "?password_file=, not in the URL (command lines are visible to every local user)");
            }
            Map<String, String> options = new HashMap<>();
            if (uri.getRawQuery() != null) {
                for (String pair : uri.getRawQuery().split("&")) {
                    int equals = pair.indexOf('=');
                    String name = equals < 0 ? pair : pair.substring(0, equals);
                    if (!URL_OPTIONS.contains(name)) {
                        throw new IllegalArgumentException(text + ": unknown option " + name + " (known: tls, "
                                + "password_file)");
                    }
                    options.put(name, URLDecoder.decode(equals < 0 ? "" : pair.substring(equals + 1),
                            StandardCharsets.UTF_8));
                }
            }
            PostgresSettings.TlsMode tls;
            try {
                tls = PostgresSettings.TlsMode.valueOf(options.getOrDefault("tls", "verify-full")
                        .toUpperCase(Locale.ROOT).replace('-', '_'));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(text + ": tls must be disable, require or verify-full");
            }
            String password = "";
            if (options.containsKey("password_file")) {
                try {
                    password = Files.readString(Path.of(options.get("password_file"))).strip();
                } catch (IOException e) {
                    throw new IllegalArgumentException(text + ": cannot read the password file "
                            + options.get("password_file"));
                }
            }
            return new PostgresSettings(uri.getHost(), uri.getPort() < 0 ? 5432 : uri.getPort(),
                    uri.getPath().substring(1), URLDecoder.decode(uri.getRawUserInfo(), StandardCharsets.UTF_8),
                    password, tls, 2);
        }
    }
}
