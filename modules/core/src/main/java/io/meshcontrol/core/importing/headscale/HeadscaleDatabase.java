package io.meshcontrol.core.importing.headscale;

import io.meshcontrol.core.MeshException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.sqlite.SQLiteConfig;

/**
 * Reads a headscale database (the SQLite file of headscale 0.27 to 0.29: users, nodes, pre_auth_keys, api_keys,
 * policies), opened read-only so the source stays as it was: going back to headscale is starting it again.
 */
final class HeadscaleDatabase {

    /** Go's zero time and anything before 1971 means "not set" in headscale's rows. */
    private static final Instant NOT_SET_BEFORE = Instant.parse("1971-01-01T00:00:00Z");
    /** Go's {@code time.Time.String()} form, which some drivers write: {@code 2024-01-02 03:04:05.6 +0000 UTC}. */
    private static final Pattern GO_STRING = Pattern.compile("(\\S+) (\\S+) ([+-]\\d{2})(\\d{2})(?: \\S+)?");

    private HeadscaleDatabase() {
    }

    /**
     * Reads the database at {@code location}: a SQLite file. A PostgreSQL URL is refused with what to do instead.
     *
     * @throws MeshException (invalid) naming the file and the problem
     */
    static HeadscaleData read(String location) {
        String lower = location.toLowerCase(Locale.ROOT);
        if (lower.startsWith("postgres://") || lower.startsWith("postgresql://") || lower.startsWith("jdbc:postgresql:")
                || lower.startsWith("host=")) {
            throw MeshException.invalid("reading headscale's PostgreSQL database is not supported yet: "
                    + "import from its SQLite database (docs/migrating-from-headscale.md says how to move to one)");
        }
        Path file = Path.of(location);
        if (!Files.isRegularFile(file)) {
            throw MeshException.invalid("no headscale database at " + file);
        }
        SQLiteConfig config = new SQLiteConfig();
        config.setReadOnly(true);
        try (Connection connection = config.createConnection("jdbc:sqlite:" + file.toAbsolutePath())) {
            requireHeadscaleTables(connection, file);
            return new HeadscaleData(users(connection), nodes(connection), preAuthKeys(connection), apiKeys(connection),
                    policy(connection));
        } catch (SQLException e) {
            throw MeshException.invalid("cannot read the headscale database " + file + ": " + e.getMessage()
                    + " (it must be headscale 0.27 or later; start that headscale once on it to migrate it)");
        }
    }

    private static void requireHeadscaleTables(Connection connection, Path file) throws SQLException {
        List<String> missing = new ArrayList<>(List.of("users", "nodes", "pre_auth_keys", "api_keys", "policies"));
        try (Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT name FROM sqlite_master WHERE type = 'table'")) {
            while (rows.next()) {
                missing.remove(rows.getString(1));
            }
        }
        if (!missing.isEmpty()) {
            throw MeshException.invalid(file + " is not a headscale database: it has no table " + String.join(", ", missing));
        }
    }

    private static List<HeadscaleData.User> users(Connection connection) throws SQLException {
        List<HeadscaleData.User> users = new ArrayList<>();
        try (Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT id, name, display_name, email, provider_identifier, "
                        + "created_at FROM users WHERE deleted_at IS NULL ORDER BY id")) {
            while (rows.next()) {
                users.add(new HeadscaleData.User(rows.getLong("id"), text(rows, "name"), text(rows, "display_name"),
                        text(rows, "email"), rows.getString("provider_identifier"), time(rows, "created_at")));
            }
        }
        return users;
    }

    private static List<HeadscaleData.Node> nodes(Connection connection) throws SQLException {
        List<HeadscaleData.Node> nodes = new ArrayList<>();
        try (Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT id, machine_key, node_key, disco_key, endpoints, "
                        + "host_info, ipv4, ipv6, hostname, given_name, user_id, register_method, tags, auth_key_id, "
                        + "last_seen, expiry, approved_routes, created_at FROM nodes WHERE deleted_at IS NULL ORDER BY id")) {
            while (rows.next()) {
                nodes.add(new HeadscaleData.Node(rows.getLong("id"), text(rows, "machine_key"), text(rows, "node_key"),
                        text(rows, "disco_key"), text(rows, "endpoints"), text(rows, "host_info"), text(rows, "ipv4"),
                        text(rows, "ipv6"), text(rows, "hostname"), text(rows, "given_name"), number(rows, "user_id"),
                        text(rows, "register_method"), text(rows, "tags"), number(rows, "auth_key_id"),
                        time(rows, "last_seen"), time(rows, "expiry"), text(rows, "approved_routes"),
                        time(rows, "created_at")));
            }
        }
        return nodes;
    }

    private static List<HeadscaleData.PreAuthKey> preAuthKeys(Connection connection) throws SQLException {
        List<HeadscaleData.PreAuthKey> keys = new ArrayList<>();
        try (Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT id, key, prefix, hash, user_id, reusable, ephemeral, "
                        + "used, tags, expiration, created_at FROM pre_auth_keys ORDER BY id")) {
            while (rows.next()) {
                keys.add(new HeadscaleData.PreAuthKey(rows.getLong("id"), emptyToNull(text(rows, "key")),
                        emptyToNull(text(rows, "prefix")), hash(rows), number(rows, "user_id"), bool(rows, "reusable"),
                        bool(rows, "ephemeral"), bool(rows, "used"), text(rows, "tags"), time(rows, "expiration"),
                        time(rows, "created_at")));
            }
        }
        return keys;
    }

    private static List<HeadscaleData.ApiKey> apiKeys(Connection connection) throws SQLException {
        List<HeadscaleData.ApiKey> keys = new ArrayList<>();
        try (Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT id, prefix, expiration, last_seen, created_at "
                        + "FROM api_keys ORDER BY id")) {
            while (rows.next()) {
                keys.add(new HeadscaleData.ApiKey(rows.getLong("id"), text(rows, "prefix"), time(rows, "expiration"),
                        time(rows, "last_seen"), time(rows, "created_at")));
            }
        }
        return keys;
    }

    private static String policy(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT data FROM policies WHERE deleted_at IS NULL "
                        + "ORDER BY id DESC LIMIT 1")) {
            return rows.next() ? emptyToNull(rows.getString(1)) : null;
        }
    }

    /** The bcrypt hash, which GORM writes as a blob (or, by some drivers, as text). */
    private static String hash(ResultSet rows) throws SQLException {
        Object value = rows.getObject("hash");
        if (value == null) {
            return null;
        }
        String text = value instanceof byte[] bytes ? new String(bytes, java.nio.charset.StandardCharsets.US_ASCII)
                : value.toString();
        return emptyToNull(text);
    }

    private static String text(ResultSet rows, String column) throws SQLException {
        String value = rows.getString(column);
        return value == null ? "" : value;
    }

    private static Long number(ResultSet rows, String column) throws SQLException {
        long value = rows.getLong(column);
        return rows.wasNull() ? null : value;
    }

    /** SQLite keeps GORM's booleans as 0/1, or as the text true/false. */
    private static boolean bool(ResultSet rows, String column) throws SQLException {
        String value = rows.getString(column);
        return value != null && (value.equals("1") || value.equalsIgnoreCase("true"));
    }

    private static String emptyToNull(String text) {
        return text == null || text.isEmpty() ? null : text;
    }

    private static Instant time(ResultSet rows, String column) throws SQLException {
        return parseTime(rows.getString(column));
    }

    /**
     * A time as headscale's SQLite driver writes it ({@code 2024-01-02 03:04:05.123456789+00:00}, the ISO form, Go's
     * {@code String()} form, or seconds since the epoch); null for none or Go's zero time.
     *
     * @throws MeshException (invalid) for text in none of these forms
     */
    static Instant parseTime(String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        String trimmed = text.strip();
        Instant instant;
        if (trimmed.matches("-?\\d+")) {
            instant = Instant.ofEpochSecond(Long.parseLong(trimmed));
        } else {
            Matcher go = GO_STRING.matcher(trimmed);
            String iso = go.matches() ? go.group(1) + "T" + go.group(2) + go.group(3) + ":" + go.group(4)
                    : trimmed.replaceFirst(" ", "T");
            try {
                instant = OffsetDateTime.parse(iso).toInstant();
            } catch (DateTimeParseException e) {
                try {
                    instant = java.time.LocalDateTime.parse(iso).toInstant(java.time.ZoneOffset.UTC);
                } catch (DateTimeParseException again) {
                    throw MeshException.invalid("unreadable time \"" + text + "\" in the headscale database");
                }
            }
        }
        return instant.isBefore(NOT_SET_BEFORE) ? null : instant;
    }
}
