package io.meshcontrol.notify;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Debian's Exim as a real SMTP server on loopback, for what GreenMail cannot show: CRAM-MD5 as the only way to sign
 * in (no TLS, nothing else offered), and a server that refuses a sender ({@link #REFUSED_SENDER}), a recipient (local
 * part {@code refused}) or a message (one whose body mentions {@code refuse-this}) with 550. {@code run-tests}
 * installs it ({@code scripts/install-test-packages.sh}); it runs as root, which Exim's {@code -C} needs.
 */
final class EximServer implements AutoCloseable {

    static final Path EXIM = Path.of("/usr/sbin/exim");
    static final String USER = "mesh";
    static final String PASSWORD = "secret";
    static final String REFUSED_SENDER = "refused@example.com";

    private static final String CONFIG = """
            primary_hostname = mail.test
            local_interfaces = 127.0.0.1
            spool_directory = FOLDER/spool
            log_file_path = FOLDER/%slog
            auth_advertise_hosts = *
            tls_advertise_hosts =
            acl_smtp_mail = acl_mail
            acl_smtp_rcpt = acl_rcpt
            acl_smtp_data = acl_data
            begin acl
            acl_mail:
              deny senders = REFUSED_SENDER
              accept
            acl_rcpt:
              deny local_parts = refused
              accept
            acl_data:
              deny condition = ${if match{$message_body}{(?i)refuse-this}}
              accept
            begin routers
            all:
              driver = accept
              transport = store
            begin transports
            store:
              driver = appendfile
              file = FOLDER/mailbox
            begin authenticators
            cram:
              driver = cram_md5
              public_name = CRAM-MD5
              server_secret = ${if eq{$auth1}{USER}{PASSWORD}fail}
            """;

    private final Path folder;
    private final Process process;
    private final int port;

    private EximServer(Path folder, Process process, int port) {
        this.folder = folder;
        this.process = process;
        this.port = port;
    }

    /** Whether Exim is installed and this process may give it a configuration of its own. */
    static boolean available() {
        return Files.isExecutable(EXIM) && "root".equals(System.getProperty("user.name"));
    }

    static EximServer start() throws IOException, InterruptedException {
        // Exim drops to its own account: the folder must be reachable and writable by it, not only by root.
        Path folder = Files.createTempDirectory("exim");
        Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString("rwxr-xr-x"));
        UserPrincipal exim = folder.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("Debian-exim");
        Files.setOwner(Files.createDirectory(folder.resolve("spool")), exim);
        Files.setOwner(folder, exim);
        Path config = folder.resolve("exim.conf");
        Files.writeString(config, CONFIG.replace("FOLDER", folder.toString()).replace("REFUSED_SENDER", REFUSED_SENDER)
                .replace("USER", USER).replace("PASSWORD", PASSWORD));
        Files.setPosixFilePermissions(config, PosixFilePermissions.fromString("rw-r--r--"));
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        Process process = new ProcessBuilder(EXIM.toString(), "-C", config.toString(), "-bdf", "-oX", Integer.toString(port))
                .redirectErrorStream(true).redirectOutput(folder.resolve("stdout").toFile()).start();
        EximServer server = new EximServer(folder, process, port);
        server.awaitListening();
        return server;
    }

    int port() {
        return port;
    }

    /** Every message delivered so far, as Exim stored them (mbox). */
    String mailbox() throws IOException {
        Path box = folder.resolve("mailbox");
        return Files.exists(box) ? Files.readString(box, StandardCharsets.ISO_8859_1) : "";
    }

    private void awaitListening() throws IOException, InterruptedException {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(20));
        while (Instant.now().isBefore(deadline)) {
            if (!process.isAlive()) {
                throw new IOException("exim stopped: " + Files.readString(folder.resolve("stdout")));
            }
            try (Socket probe = new Socket("127.0.0.1", port)) {
                return;
            } catch (IOException notYet) {
                Thread.sleep(100);
            }
        }
        throw new IOException("exim did not listen on " + port);
    }

    @Override
    public void close() throws IOException {
        process.destroy();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try (Stream<Path> files = Files.walk(folder)) {
            for (Path path : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }
}
