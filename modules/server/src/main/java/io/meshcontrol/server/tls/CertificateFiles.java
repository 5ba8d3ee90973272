package io.meshcontrol.server.tls;

import io.meshcontrol.core.RateLimitedLog;
import io.meshcontrol.core.config.ConfigProblem;
import io.meshcontrol.core.config.MeshConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The certificate of {@code tls_cert_path} and {@code tls_key_path}, read again when either file changes, so that a
 * renewal by certbot or a copy from elsewhere takes effect without a restart.
 *
 * <p>Each handshake asks for the current pair; the files' identity, size and modification time are compared with
 * those last read (a few {@code stat} calls), and only a change reads them again. A new pair that cannot be used (a
 * key that does not fit the certificate, as while the two files are replaced one after the other, or a half-written
 * file) keeps the previous pair in service and is tried again at the next handshake.
 */
public final class CertificateFiles implements Supplier<CertifiedKey> {

    private static final System.Logger LOG = System.getLogger(CertificateFiles.class.getName());

    private final Path certificatePath;
    private final Path keyPath;
    private final RateLimitedLog problems = new RateLimitedLog(LOG);
    private volatile Loaded loaded;

    private record Stamp(Object fileKey, long size, long modified) {
        static Stamp of(Path file) throws IOException {
            BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
            return new Stamp(a.fileKey(), a.size(), a.lastModifiedTime().toMillis() * 1_000_000
                    + a.lastModifiedTime().toInstant().getNano() % 1_000_000);
        }
    }

    private record Loaded(List<Stamp> stamps, CertifiedKey pair) {
    }

    private CertificateFiles(Path certificatePath, Path keyPath, Loaded loaded) {
        this.certificatePath = certificatePath;
        this.keyPath = keyPath;
        this.loaded = loaded;
    }

    /**
     * Reads the pair once; a pair that cannot be used stops the start.
     *
     * @throws UncheckedIOException naming the file and what is wrong with it
     */
    public static CertificateFiles open(Path certificatePath, Path keyPath) {
        try {
            return new CertificateFiles(certificatePath, keyPath, read(certificatePath, keyPath));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot serve HTTPS from " + certificatePath + " and " + keyPath + ": "
                    + e.getMessage(), e);
        }
    }

    /**
     * What keeps {@code tls_cert_path} and {@code tls_key_path} from serving, each problem naming its key and file:
     * a file that is missing or cannot be read, else a pair that {@link #open} refuses. Empty when either key is
     * unset (serving no certificate from files) or the pair can be used.
     */
    public static List<ConfigProblem> problems(MeshConfig.Tls tls) {
        if (tls.certPath().isEmpty() || tls.keyPath().isEmpty()) {
            return List.of();
        }
        Path certificatePath = tls.certPath().get();
        Path keyPath = tls.keyPath().get();
        List<ConfigProblem> problems = new ArrayList<>();
        unreadable(certificatePath).ifPresent(reason -> problems.add(new ConfigProblem("tls_cert_path", reason)));
        unreadable(keyPath).ifPresent(reason -> problems.add(new ConfigProblem("tls_key_path", reason)));
        if (problems.isEmpty()) {
            try {
                read(certificatePath, keyPath);
            } catch (IOException e) {
                problems.add(new ConfigProblem("tls_cert_path", "cannot serve HTTPS from " + certificatePath + " and "
                        + keyPath + ": " + e.getMessage()));
            }
        }
        return problems;
    }

    private static Optional<String> unreadable(Path file) {
        if (!Files.exists(file)) {
            return Optional.of(file + " does not exist");
        }
        if (!Files.isRegularFile(file)) {
            return Optional.of(file + " is not a regular file");
        }
        if (!Files.isReadable(file)) {
            return Optional.of(file + " cannot be read by this account");
        }
        return Optional.empty();
    }

    @Override
    public CertifiedKey get() {
        Loaded current = loaded;
        try {
            if (!current.stamps().equals(stamps(certificatePath, keyPath))) {
                synchronized (this) {
                    current = loaded;
                    if (!current.stamps().equals(stamps(certificatePath, keyPath))) {
                        Loaded fresh = read(certificatePath, keyPath);
                        loaded = fresh;
                        current = fresh;
                        LOG.log(Level.INFO, "HTTPS certificate reloaded from " + certificatePath + ": "
                                + fresh.pair());
                    }
                }
            }
        } catch (IOException e) {
            problems.warn("tls-reload", () -> "keeping the HTTPS certificate in service: the new one in "
                    + certificatePath + " and " + keyPath + " cannot be used yet (" + e.getMessage() + ")");
        }
        return current.pair();
    }

    private static List<Stamp> stamps(Path certificatePath, Path keyPath) throws IOException {
        return List.of(Stamp.of(certificatePath), Stamp.of(keyPath));
    }

    private static Loaded read(Path certificatePath, Path keyPath) throws IOException {
        // Stamps first: a change while reading then shows at the next handshake.
        List<Stamp> stamps = stamps(certificatePath, keyPath);
        CertifiedKey pair = CertifiedKey.parse(Files.readString(certificatePath, StandardCharsets.US_ASCII),
                Files.readString(keyPath, StandardCharsets.US_ASCII));
        if (!pair.matches()) {
            throw new IOException("the private key does not belong to the first certificate");
        }
        return new Loaded(stamps, Objects.requireNonNull(pair));
    }
}
