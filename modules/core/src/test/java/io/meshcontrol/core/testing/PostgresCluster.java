package io.meshcontrol.core.testing;

import io.meshcontrol.core.store.Database;
import io.meshcontrol.core.store.PostgresSettings;
import io.meshcontrol.core.store.StatementLogger;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * A real PostgreSQL server from Debian's package, run by the tests as an unprivileged cluster in a temporary folder:
 * {@code initdb}, then {@code pg_ctl start} on a free loopback port with its Unix socket in that folder; stopped and
 * deleted when the JVM ends. One cluster per test JVM (starting one takes about a second); each
 * {@link #newDatabase()} is a fresh, empty database in it. initdb refuses to run as root, so as root (CI) the
 * cluster runs as the package's {@code postgres} account, which owns the folder. Connections trust loopback: the
 * cluster is reachable from this machine only, for as long as the tests run.
 */
public final class PostgresCluster {

    /** {@code svc.test.database=postgres}: core's state tests run on PostgreSQL instead of SQLite. */
    public static final String ENGINE_PROPERTY = "svc.test.database";
    private static final String USER = "svc";
    private static final String TEMPLATE = "svc_migrated";
    private static final StatementLogger QUIET = new StatementLogger(false, true, java.time.Duration.ZERO, false);
    private static final long START_SECONDS = 60;
    private static PostgresCluster shared;

    private final Path folder;
    private final Path data;
    private final Path bin;
    private final Optional<String> runAs;
    private final int port;
    private final AtomicInteger databases = new AtomicInteger();
    private boolean templateMigrated;

    private PostgresCluster(Path bin) throws IOException, InterruptedException {
        this.bin = bin;
        this.runAs = isRoot() ? Optional.of("postgres") : Optional.empty();
        this.folder = Files.createTempDirectory("svc-postgres-");
        this.data = folder.resolve("data");
        if (runAs.isPresent()) {
            UserPrincipalLookupService users = folder.getFileSystem().getUserPrincipalLookupService();
            Files.setOwner(folder, users.lookupPrincipalByName(runAs.get()));
        }
        run(bin.resolve("initdb").toString(), "-D", data.toString(), "-U", USER, "--auth=trust", "-E", "UTF8",
                "--locale=C", "--no-sync");
        this.port = start();
    }

    /**
     * Starts the server on a port found free: a handover (postgres takes its port on the command line, and the
     * driver cannot reach its Unix socket), so a port taken in between is answered by trying another.
     */
    private int start() throws IOException, InterruptedException {
        IllegalStateException failed = null;
        for (int attempt = 0; attempt < 3; attempt++) {
            int candidate = freePort();
            try {
                // fsync off: a test cluster never has to survive a crash, and every test makes a database. Many
                // connections: tests seldom close their networks, so kept connections pile up until collected.
                run(bin.resolve("pg_ctl").toString(), "-D", data.toString(), "-l",
                        folder.resolve("server.log").toString(), "-w", "-t", String.valueOf(START_SECONDS), "-o",
                        "-p " + candidate + " -k " + folder + " -c listen_addresses=127.0.0.1 -c fsync=off"
                                + " -c synchronous_commit=off -c full_page_writes=off -c max_connections=1000",
                        "start");
                return candidate;
            } catch (IllegalStateException e) {
                failed = e;
            }
        }
        throw failed;
    }

    /** True when this test JVM runs its {@link TestNetwork}s on PostgreSQL ({@value #ENGINE_PROPERTY}=postgres). */
    public static boolean wanted() {
        return "postgres".equals(System.getProperty(ENGINE_PROPERTY));
    }

    /** The one cluster of this JVM, started at the first call. */
    public static synchronized PostgresCluster shared() {
        if (shared == null) {
            Path bin = binaries().orElseThrow(() -> new IllegalStateException(
                    "PostgreSQL is not installed (apt-get install postgresql; run-tests installs it)"));
            try {
                shared = new PostgresCluster(bin);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            PostgresCluster started = shared;
            Runtime.getRuntime().addShutdownHook(new Thread(started::stop));
        }
        return shared;
    }

    /** Whether Debian's PostgreSQL server binaries are on this machine. */
    public static boolean installed() {
        return binaries().isPresent();
    }

    /** The newest {@code /usr/lib/postgresql/<version>/bin}. */
    private static Optional<Path> binaries() {
        Path root = Path.of("/usr/lib/postgresql");
        if (!Files.isDirectory(root)) {
            return Optional.empty();
        }
        try (Stream<Path> versions = Files.list(root)) {
            return versions.map(v -> v.resolve("bin"))
                    .filter(b -> Files.isExecutable(b.resolve("initdb")) && Files.isExecutable(b.resolve("pg_ctl")))
                    .max(Comparator.comparingInt(b -> majorVersion(b.getParent().getFileName().toString())));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static int majorVersion(String name) {
        try {
            return Integer.parseInt(name.replaceAll("\\..*", ""));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /**
     * A new database in the cluster with every migration applied: a copy of a template migrated once, which takes a
     * few milliseconds where migrating each one took a quarter of a second. Reached over loopback TCP.
     */
    public synchronized PostgresSettings newDatabase() {
        if (!templateMigrated) {
            create(TEMPLATE, "");
            Database.open(settings(TEMPLATE), QUIET).close();
            templateMigrated = true;
        }
        // FILE_COPY: copies the files once, where the default (WAL_LOG) writes every page into the log as well.
        return settings(create("svc_test_" + databases.incrementAndGet(), " TEMPLATE " + TEMPLATE
                + " STRATEGY FILE_COPY"));
    }

    /** A new, empty database in the cluster (no tables: not migrated yet). */
    public PostgresSettings newEmptyDatabase() {
        return settings(create("svc_empty_" + databases.incrementAndGet(), ""));
    }

    private String create(String name, String options) {
        try (Connection admin = connect("postgres"); Statement statement = admin.createStatement()) {
            statement.execute("CREATE DATABASE " + name + options);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create database " + name + ": " + e.getMessage(), e);
        }
        return name;
    }

    /** The {@code postgres://} URL of a new, empty database (for modules that do not see core's store package). */
    public String newEmptyDatabaseUrl() {
        return url(newEmptyDatabase().name());
    }

    /** The {@code database.*} configuration keys of a new, empty database, for a server under test. */
    public Map<String, String> newEmptyDatabaseConfig() {
        PostgresSettings settings = newEmptyDatabase();
        return Map.of("database.type", "postgres", "database.postgres.host", settings.host(),
                "database.postgres.port", String.valueOf(settings.port()), "database.postgres.name", settings.name(),
                "database.postgres.user", settings.user(), "database.postgres.tls", "disable");
    }

    /** How to reach the database {@code name} of this cluster. */
    public PostgresSettings settings(String name) {
        return new PostgresSettings("127.0.0.1", port, name, USER, "", PostgresSettings.TlsMode.DISABLE, 4);
    }

    /** A {@code postgres://} URL of the database {@code name}, as {@code svc db migrate} takes it. */
    public String url(String name) {
        return "postgres://" + USER + "@127.0.0.1:" + port + "/" + name + "?tls=disable";
    }

    /** A plain JDBC connection to {@code database}, for tests that look at the tables. */
    public Connection connect(String database) throws SQLException {
        return DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + port + "/" + database + "?user=" + USER
                + "&sslmode=disable");
    }

    public int port() {
        return port;
    }

    private void stop() {
        try {
            run(bin.resolve("pg_ctl").toString(), "-D", data.toString(), "-m", "immediate", "-w", "stop");
        } catch (IOException | RuntimeException e) {
            // The folder goes anyway; a server left running would lose its files and stop.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            // A database per test network makes a large folder: removed by a process that outlives this JVM, whose
            // shutdown must not wait for it (surefire kills a fork that takes long to exit).
            new ProcessBuilder("rm", "-rf", folder.toString()).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        } catch (IOException e) {
            // A leftover temporary folder is harmless.
        }
    }

    private void run(String... command) throws IOException, InterruptedException {
        List<String> line = new ArrayList<>();
        runAs.ifPresent(user -> line.addAll(List.of("runuser", "-u", user, "--")));
        line.addAll(List.of(command));
        Path output = Files.createTempFile("svc-postgres-command", ".log");
        try {
            Process process = new ProcessBuilder(line).directory(folder.toFile()).redirectErrorStream(true)
                    .redirectOutput(output.toFile()).start();
            if (!process.waitFor(START_SECONDS + 10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException(String.join(" ", line) + " did not finish");
            }
            if (process.exitValue() != 0) {
                String log = Files.exists(folder.resolve("server.log")) ? Files.readString(folder.resolve("server.log"))
                        : "";
                throw new IllegalStateException(String.join(" ", line) + " failed (" + process.exitValue() + "): "
                        + Files.readString(output) + log);
            }
        } finally {
            Files.deleteIfExists(output);
        }
    }

    private static boolean isRoot() {
        try {
            Process id = new ProcessBuilder("id", "-u").redirectErrorStream(true).start();
            String uid = new String(id.getInputStream().readAllBytes()).strip();
            return id.waitFor() == 0 && uid.equals("0");
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
