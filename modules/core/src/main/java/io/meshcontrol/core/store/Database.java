package io.meshcontrol.core.store;

import io.meshcontrol.core.DatabaseUnreachable;
import io.meshcontrol.core.OwnerOnlyFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.ClassProvider;
import org.flywaydb.core.api.migration.JavaMigration;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.statement.SqlLogger;
import org.postgresql.ds.PGSimpleDataSource;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteDataSource;

/**
 * The database: SQLite (the default, a file of the server's) or PostgreSQL ({@code database.type: postgres}), migrated
 * by Flyway before use. What differs between the two is in {@link Dialect}; the stores' SQL is common to both.
 * SQLite is opened with foreign keys on and a busy timeout. Durability: with write-ahead logging,
 * {@code synchronous=FULL} syncs the log on every commit, so an acknowledged write survives a killed process and a
 * power cut (docs/storage.md); on PostgreSQL, durability is the server's (its own {@code fsync} and replication).
 */
public final class Database implements AutoCloseable {

    private static final int BUSY_TIMEOUT_MILLIS = 10_000;
    private static final int CONNECT_TIMEOUT_SECONDS = 10;
    /** A PostgreSQL connection kept this long is checked before it is lent again (ConnectionPool). */
    static final Duration CHECK_AFTER_IDLE = Duration.ofSeconds(10);
    /** SQLite's own default for {@code wal_autocheckpoint}, in pages. */
    public static final int DEFAULT_WAL_AUTOCHECKPOINT = 1000;

    private final Dialect dialect;
    private final Jdbi jdbi;
    private final Path file;
    private final ConnectionPool connections;
    private final SerializedTransactions transactions;
    private final boolean checkpointsOnSchedule;
    private final DataSource source;

    private Database(Dialect dialect, Path file, DataSource source, Jdbi jdbi, ConnectionPool connections,
            SerializedTransactions transactions, boolean checkpointsOnSchedule) {
        this.dialect = dialect;
        this.source = source;
        this.file = file;
        this.checkpointsOnSchedule = checkpointsOnSchedule;
        this.jdbi = jdbi;
        this.connections = connections;
        this.transactions = transactions;
    }

    public static Database open(Path file, boolean writeAheadLog) {
        return open(file, writeAheadLog, new StatementLogger(false, true, Duration.ZERO, false));
    }

    /** @param log what is logged of the statements run ({@code database.debug}, {@code database.query_log.*}) */
    public static Database open(Path file, boolean writeAheadLog, SqlLogger log) {
        return open(file, writeAheadLog, DEFAULT_WAL_AUTOCHECKPOINT, log);
    }

    /**
     * @param walAutocheckpoint {@code database.sqlite.wal_autocheckpoint}: the pages the write-ahead log may grow to
     *     before the commit that passes them checkpoints it; 0 turns that off, and then {@link #checkpoint()} must
     *     run on a schedule ({@link #checkpointsOnSchedule()})
     * @param log what is logged of the statements run ({@code database.debug}, {@code database.query_log.*})
     */
    public static Database open(Path file, boolean writeAheadLog, int walAutocheckpoint, SqlLogger log) {
        try {
            // The data folder holds the database and private keys: readable by the server's account only. SQLite
            // would create the file with the umask's mode, and its -wal, -shm and -journal files take the mode of
            // the database file: so the file is made owner-only before SQLite opens it.
            OwnerOnlyFiles.createFile(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the database " + file + ": " + e.getMessage(), e);
        }
        SQLiteConfig config = new SQLiteConfig();
        config.enforceForeignKeys(true);
        config.setBusyTimeout(BUSY_TIMEOUT_MILLIS);
        config.setJournalMode(writeAheadLog ? SQLiteConfig.JournalMode.WAL : SQLiteConfig.JournalMode.DELETE);
        config.setSynchronous(SQLiteConfig.SynchronousMode.FULL);
        // A per-connection setting: every connection of the pool is opened with it.
        config.setWalAutocheckpoint(walAutocheckpoint);
        // A transaction that reads and then writes cannot wait for a concurrent writer (SQLite answers BUSY at once),
        // so transactions take the write lock when they begin and queue on the busy timeout instead.
        config.setTransactionMode(SQLiteConfig.TransactionMode.IMMEDIATE);
        // No store reads generated keys back, and with this off the driver has none to give: without it, the driver
        // matches every statement against a pattern and runs a query of its own after each insert to have them ready.
        config.setGetGeneratedKeys(false);
        SQLiteDataSource dataSource = new SQLiteDataSource(config);
        dataSource.setUrl("jdbc:sqlite:" + file.toAbsolutePath());
        return open(Dialect.SQLITE, file, dataSource, new ConnectionPool(dataSource, ConnectionPool.SQLITE_SIZE), log,
                writeAheadLog && walAutocheckpoint == 0);
    }

    /**
     * Opens (migrating as needed) the PostgreSQL database {@code settings} name. The database and its user must exist;
     * the schema is made here, in the user's default schema.
     *
     * @throws DatabaseUnreachable when no connection can be made
     */
    public static Database open(PostgresSettings settings, SqlLogger log) {
        return open(settings, log, CHECK_AFTER_IDLE);
    }

    /** @param checkAfterIdle how long a kept connection may idle before it is checked: for tests */
    static Database open(PostgresSettings settings, SqlLogger log, Duration checkAfterIdle) {
        DataSource dataSource = dataSource(settings);
        try (Connection probe = dataSource.getConnection()) {
            probe.isValid(CONNECT_TIMEOUT_SECONDS);
        } catch (SQLException e) {
            throw unreachable(settings, e);
        }
        return open(Dialect.POSTGRES, null, dataSource, new ConnectionPool(dataSource, settings.poolSize(),
                checkAfterIdle), log, false);
    }

    /** The tables in the user's default schema of the PostgreSQL database: none before the first start. */
    public static List<String> existingTables(PostgresSettings settings) {
        try (Connection connection = dataSource(settings).getConnection();
                var statement = connection.prepareStatement("SELECT table_name FROM information_schema.tables "
                        + "WHERE table_schema = current_schema() ORDER BY table_name");
                var rows = statement.executeQuery()) {
            List<String> tables = new ArrayList<>();
            while (rows.next()) {
                tables.add(rows.getString(1));
            }
            return tables;
        } catch (SQLException e) {
            throw unreachable(settings, e);
        }
    }

    private static DatabaseUnreachable unreachable(PostgresSettings settings, SQLException e) {
        return new DatabaseUnreachable("cannot connect to PostgreSQL at " + settings.describe() + ": "
                + e.getMessage(), e);
    }

    private static PGSimpleDataSource dataSource(PostgresSettings settings) {
        PGSimpleDataSource dataSource = new PGSimpleDataSource();
        dataSource.setServerNames(new String[] {settings.host()});
        dataSource.setPortNumbers(new int[] {settings.port()});
        dataSource.setDatabaseName(settings.name());
        dataSource.setUser(settings.user());
        if (!settings.password().isEmpty()) {
            dataSource.setPassword(settings.password());
        }
        dataSource.setSslMode(settings.tls().sslmode());
        dataSource.setApplicationName("svc");
        dataSource.setConnectTimeout(CONNECT_TIMEOUT_SECONDS);
        return dataSource;
    }

    private static Database open(Dialect dialect, Path file, DataSource dataSource, ConnectionPool connections,
            SqlLogger log, boolean checkpointsOnSchedule) {
        migrate(dialect, dataSource);
        Jdbi jdbi = Jdbi.create(connections);
        jdbi.setSqlLogger(log);
        if (dialect == Dialect.SQLITE) {
            // SQLite compiles a statement on every prepare; PostgreSQL's driver keeps prepared statements itself.
            jdbi.setStatementBuilderFactory(connections.keptStatements());
        }
        // One writer at a time keeps a read-modify-write correct (under READ COMMITTED on PostgreSQL): in this process
        // by a Java lock, across the instances sharing a PostgreSQL database by the dialect's lock.
        SerializedTransactions transactions = new SerializedTransactions(jdbi.getTransactionHandler(), dialect);
        jdbi.setTransactionHandler(transactions);
        return new Database(dialect, file, dataSource, jdbi, connections, transactions, checkpointsOnSchedule);
    }

    private static void migrate(Dialect dialect, DataSource dataSource) {
        Flyway.configure()
                .dataSource(dataSource)
                .resourceProvider(new MigrationIndex(dialect))
                .javaMigrationClassProvider(new NoJavaMigrations())
                .locations(MigrationIndex.LOCATION)
                .failOnMissingLocations(false)
                .load()
                .migrate();
    }

    public Jdbi jdbi() {
        return jdbi;
    }

    public Dialect dialect() {
        return dialect;
    }

    /**
     * The notifications of the change log, on a connection of their own (PostgreSQL, where instances share the
     * database); the caller closes them.
     */
    public ChangeNotifications changeNotifications() {
        if (!dialect.sharedByInstances()) {
            throw new IllegalStateException("only a database instances share has change notifications");
        }
        return new ChangeNotifications(source);
    }

    /** The SQLite file; null on PostgreSQL. */
    public Path file() {
        return file;
    }

    /** True when SQLite's automatic checkpoints are off and the server must run {@link #checkpoint()} itself. */
    public boolean checkpointsOnSchedule() {
        return checkpointsOnSchedule;
    }

    /**
     * Copies the write-ahead log into the database and truncates the log to nothing. It waits (up to the busy
     * timeout) for a writer to finish and for readers of older snapshots, and holds back new writers while it runs;
     * our transactions are short, so that wait is short too. Synchronous=FULL made every commit durable in the log
     * already: the checkpoint bounds the log's size and the time a restart spends reading it, not durability.
     *
     * @return true when the whole log was copied; false when a reader or writer kept it busy (the next run finishes)
     */
    public boolean checkpoint() {
        if (dialect != Dialect.SQLITE) {
            return true;
        }
        // The result row: busy (1 when it could not finish), pages in the log, pages checkpointed.
        return jdbi.withHandle(h -> h.createQuery("PRAGMA wal_checkpoint(TRUNCATE)").mapTo(Integer.class).first())
                == 0;
    }

    /** Connections open and waiting for the next handle: for tests. */
    int idleConnections() {
        return connections.idleConnections();
    }

    /** Prepared statements kept with the idle connections: for tests. */
    int statementsKept() {
        return connections.statementsKept();
    }

    /** Transactions waiting for the writer lock: for tests. */
    int queuedWriters() {
        return transactions.queuedWriters();
    }

    /** Closes the kept connections and keeps no more; handles still open close theirs when they end. */
    @Override
    public void close() {
        connections.close();
    }

    /** True when a trivial query succeeds: used by {@code /health}. */
    public boolean isReachable() {
        try {
            return jdbi.withHandle(h -> h.createQuery("SELECT 1").mapTo(Integer.class).one()) == 1;
        } catch (RuntimeException e) {
            return false;
        }
    }

    private static final class NoJavaMigrations implements ClassProvider<JavaMigration> {
        @Override
        public List<Class<? extends JavaMigration>> getClasses() {
            return List.of();
        }
    }
}
