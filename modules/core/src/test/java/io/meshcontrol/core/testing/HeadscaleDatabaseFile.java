package io.meshcontrol.core.testing;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import org.bouncycastle.crypto.generators.OpenBSDBCrypt;

/**
 * A small headscale database (the tables and columns of headscale 0.29's SQLite schema, as its migrations leave
 * them), filled by the test, for {@code svc import headscale}. Times are written as headscale's driver writes them.
 */
public final class HeadscaleDatabaseFile implements AutoCloseable {

    private static final String[] SCHEMA = {
        "CREATE TABLE migrations (id TEXT PRIMARY KEY)",
        "CREATE TABLE users (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT, display_name TEXT, email TEXT, "
                + "provider_identifier TEXT, provider TEXT, profile_pic_url TEXT, created_at DATETIME, "
                + "updated_at DATETIME, deleted_at DATETIME)",
        "CREATE TABLE pre_auth_keys (id INTEGER PRIMARY KEY AUTOINCREMENT, key TEXT, prefix TEXT, hash BLOB, "
                + "user_id INTEGER, reusable NUMERIC, ephemeral NUMERIC DEFAULT false, used NUMERIC DEFAULT false, "
                + "tags TEXT, expiration DATETIME, created_at DATETIME)",
        "CREATE TABLE api_keys (id INTEGER PRIMARY KEY AUTOINCREMENT, prefix TEXT, hash BLOB, expiration DATETIME, "
                + "last_seen DATETIME, created_at DATETIME)",
        "CREATE TABLE nodes (id INTEGER PRIMARY KEY AUTOINCREMENT, machine_key TEXT, node_key TEXT, disco_key TEXT, "
                + "endpoints TEXT, host_info TEXT, ipv4 TEXT, ipv6 TEXT, hostname TEXT, given_name VARCHAR(63), "
                + "user_id INTEGER, register_method TEXT, tags TEXT, auth_key_id INTEGER, last_seen DATETIME, "
                + "expiry DATETIME, approved_routes TEXT, created_at DATETIME, updated_at DATETIME, "
                + "deleted_at DATETIME)",
        "CREATE TABLE policies (id INTEGER PRIMARY KEY AUTOINCREMENT, data TEXT, created_at DATETIME, "
                + "updated_at DATETIME, deleted_at DATETIME)",
        "CREATE TABLE database_versions (id INTEGER PRIMARY KEY, version TEXT NOT NULL, updated_at DATETIME)",
    };

    /** How headscale's SQLite driver writes a time. */
    public static final String CREATED = "2026-01-02 03:04:05.123456789+00:00";

    private final Connection connection;

    private HeadscaleDatabaseFile(Connection connection) {
        this.connection = connection;
    }

    public static HeadscaleDatabaseFile create(Path file) throws SQLException {
        Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file);
        try (Statement statement = connection.createStatement()) {
            for (String ddl : SCHEMA) {
                statement.execute(ddl);
            }
            statement.execute("INSERT INTO database_versions (id, version) VALUES (1, 'v0.29.2')");
        }
        return new HeadscaleDatabaseFile(connection);
    }

    public HeadscaleDatabaseFile user(long id, String name, String email, String providerIdentifier) throws SQLException {
        update("INSERT INTO users (id, name, display_name, email, provider_identifier, provider, created_at, "
                + "updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", id, name, name.toUpperCase(), email,
                providerIdentifier, providerIdentifier == null ? "" : "oidc", CREATED, CREATED);
        return this;
    }

    /** A hashed pre-auth key as headscale 0.27+ makes them; returns the key's text ({@code hskey-auth-...}). */
    public String preAuthKey(long id, String prefix, String secret, Long userId, String tagsJson, boolean reusable,
            boolean ephemeral, String expiration) throws SQLException {
        String hash = OpenBSDBCrypt.generate("2a", secret.toCharArray(), new byte[16], 4);
        update("INSERT INTO pre_auth_keys (id, key, prefix, hash, user_id, reusable, ephemeral, used, tags, "
                + "expiration, created_at) VALUES (?, '', ?, ?, ?, ?, ?, 0, ?, ?, ?)", id, prefix,
                hash.getBytes(StandardCharsets.US_ASCII), userId, reusable ? 1 : 0, ephemeral ? 1 : 0, tagsJson,
                expiration, CREATED);
        return "hskey-auth-" + prefix + "-" + secret;
    }

    /** A key from before headscale hashed them: the whole key in plain text. */
    public HeadscaleDatabaseFile legacyPreAuthKey(long id, String key, long userId) throws SQLException {
        update("INSERT INTO pre_auth_keys (id, key, user_id, reusable, tags, expiration, created_at) "
                + "VALUES (?, ?, ?, 1, '[]', '2099-01-01 00:00:00+00:00', ?)", id, key, userId, CREATED);
        return this;
    }

    public HeadscaleDatabaseFile apiKey(long id, String prefix) throws SQLException {
        update("INSERT INTO api_keys (id, prefix, hash, expiration, created_at) VALUES (?, ?, ?, ?, ?)", id, prefix,
                "$2a$10$notarealhash".getBytes(StandardCharsets.US_ASCII), "2099-01-01 00:00:00+00:00", CREATED);
        return this;
    }

    /**
     * A node; {@code hexDigit} makes its keys ({@code mkey:}, {@code nodekey:}, {@code discokey:} and 64 hex digits).
     *
     * @param expiry null, Go's zero time, or a time
     */
    public HeadscaleDatabaseFile node(long id, char hexDigit, String name, String ipv4, String ipv6, Long userId,
            String tagsJson, Long authKeyId, String hostinfo, String approvedRoutes, String expiry) throws SQLException {
        String hex = String.valueOf(hexDigit).repeat(64);
        update("INSERT INTO nodes (id, machine_key, node_key, disco_key, endpoints, host_info, ipv4, ipv6, hostname, "
                + "given_name, user_id, register_method, tags, auth_key_id, last_seen, expiry, approved_routes, "
                + "created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", id,
                "mkey:" + hex, "nodekey:" + hex, "discokey:" + hex, "[\"192.0.2.1:41641\"]", hostinfo, ipv4, ipv6,
                name.toUpperCase(), name, userId, authKeyId == null ? "cli" : "authkey", tagsJson, authKeyId, CREATED,
                expiry, approvedRoutes, CREATED, CREATED);
        return this;
    }

    public HeadscaleDatabaseFile policy(String text) throws SQLException {
        update("INSERT INTO policies (data, created_at, updated_at) VALUES (?, ?, ?)", text, CREATED, CREATED);
        return this;
    }

    private void update(String sql, Object... values) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < values.length; i++) {
                statement.setObject(i + 1, values[i]);
            }
            statement.executeUpdate();
        }
    }

    @Override
    public void close() throws SQLException {
        connection.close();
    }
}
