package io.meshcontrol.core.store;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;

/** Instants are stored as epoch milliseconds. */
final class Times {

    private Times() {
    }

    static Long toMillis(Instant instant) {
        return instant == null ? null : instant.toEpochMilli();
    }

    static Instant instant(ResultSet rs, String column) throws SQLException {
        long millis = rs.getLong(column);
        return rs.wasNull() ? null : Instant.ofEpochMilli(millis);
    }
}
