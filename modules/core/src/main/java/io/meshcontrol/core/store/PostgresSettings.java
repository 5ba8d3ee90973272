package io.meshcontrol.core.store;

import java.util.Locale;
import java.util.Objects;

/**
 * Where the PostgreSQL database is and how to reach it ({@code database.postgres.*}).
 *
 * @param password empty: none (the server's {@code pg_hba.conf} trusts the connection, or a client certificate)
 * @param poolSize connections kept open at most
 */
public record PostgresSettings(String host, int port, String name, String user, String password, TlsMode tls,
        int poolSize) {

    public PostgresSettings {
        Objects.requireNonNull(host);
        Objects.requireNonNull(name);
        Objects.requireNonNull(user);
        Objects.requireNonNull(password);
        Objects.requireNonNull(tls);
        if (poolSize < 1) {
            throw new IllegalArgumentException("the pool needs at least one connection");
        }
    }

    /** The same as {@code database.postgres.tls}; named as the driver's {@code sslmode}. */
    public enum TlsMode {
        /** Plain TCP: for a loopback or otherwise private link only. */
        DISABLE,
        /** Encrypted, the server's certificate not checked. */
        REQUIRE,
        /** Encrypted, and the certificate must be valid for the host, signed by a trusted authority. */
        VERIFY_FULL;

        public String sslmode() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }

    /** For messages: the server and database, never the password. */
    public String describe() {
        return user + "@" + host + ":" + port + "/" + name;
    }
}
