package io.meshcontrol.core.store;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import javax.sql.DataSource;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/**
 * The wake-up of {@link ChangeLog} readers: LISTEN on a connection of its own (outside the pool, which lends
 * connections for one handle at a time), opened again after a failure. Only a hint that rows were written: a reader
 * reads the log after each wake-up and after each timeout alike.
 */
public final class ChangeNotifications implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(ChangeNotifications.class.getName());

    private final DataSource source;
    private Connection connection;
    private volatile boolean closed;
    /** The last attempt failed (told once, not at every retry). */
    private boolean failing;

    ChangeNotifications(DataSource source) {
        this.source = source;
    }

    /**
     * Waits up to {@code timeout} for a notification of the change log.
     *
     * @return true when one came (rows were committed), false on the timeout or when the connection failed
     */
    public boolean await(Duration timeout) {
        try {
            if (connection == null) {
                connection = source.getConnection();
                try (Statement listen = connection.createStatement()) {
                    listen.execute("LISTEN " + ChangeLog.CHANNEL);
                }
            }
            PGNotification[] notifications = connection.unwrap(PGConnection.class)
                    .getNotifications((int) Math.max(1, timeout.toMillis()));
            failing = false;
            return notifications != null && notifications.length > 0;
        } catch (SQLException e) {
            if (!closed && !failing) {
                LOG.log(System.Logger.Level.WARNING, "listening for changes of other instances failed ("
                        + e.getMessage() + "); following the change log by polling until it works again");
            }
            failing = true;
            closeConnection();
            try {
                Thread.sleep(timeout); // the database may be down: no busy loop of reconnections
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
            }
            return false;
        }
    }

    /** Ends the listening; a wait in progress ends with its connection. */
    @Override
    public void close() {
        closed = true;
        closeConnection();
    }

    private synchronized void closeConnection() {
        Connection open = connection;
        connection = null;
        if (open != null) {
            try {
                open.close();
            } catch (SQLException e) {
                // already unusable: nothing to release
            }
        }
    }
}
