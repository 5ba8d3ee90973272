package io.meshcontrol.interop;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The nodes of one test: register as an instance field,
 * <pre>{@code @RegisterExtension final TailscaleNodes nodes = new TailscaleNodes();}</pre>
 * and start nodes with {@link #start}. After each test every node is stopped and its state removed; if the
 * test failed, the tail of each node's daemon log and CLI transcript is printed first. Logs stay under
 * {@code target/interop-logs/<test class>/<test>/} (system property {@code svc.interop.logs}).
 */
public final class TailscaleNodes implements BeforeEachCallback, AfterEachCallback {

    private static final int FAILURE_LOG_LINES = 60;

    private final List<TailscaleNode> nodes = new ArrayList<>();
    private Path workDir;
    private Path logDir;

    @Override
    public void beforeEach(ExtensionContext context) throws IOException {
        // Under the system temp dir, not target/: unix socket paths must stay short.
        workDir = Files.createTempDirectory("svc-ts-");
        String logRoot = System.getProperty("svc.interop.logs", "target/interop-logs");
        logDir = Path.of(logRoot, context.getRequiredTestClass().getSimpleName(), testDirName(context));
    }

    /** Starts a node of {@code version} named {@code name} (also its directory and log file names). */
    public TailscaleNode start(ClientVersion version, String name) {
        return builder(version, name).start();
    }

    /** A builder with this test's directories set, for extra environment or daemon flags. */
    public TailscaleNode.Builder builder(ClientVersion version, String name) {
        if (workDir == null) {
            throw new IllegalStateException("TailscaleNodes must be registered with @RegisterExtension on an instance field");
        }
        return TailscaleNode.builder(ClientBinaries.of(version), name).workDir(workDir).logDir(logDir).onStart(nodes::add);
    }

    /** Nodes started so far in this test. */
    public List<TailscaleNode> all() {
        return List.copyOf(nodes);
    }

    public Path logDir() {
        return logDir;
    }

    @Override
    public void afterEach(ExtensionContext context) {
        if (context.getExecutionException().isPresent()) {
            StringBuilder report = new StringBuilder();
            for (TailscaleNode node : nodes) {
                report.append("\n===== ").append(node).append(": ").append(node.logFile()).append(" (last ")
                        .append(FAILURE_LOG_LINES).append(" lines)\n").append(node.logTail(FAILURE_LOG_LINES))
                        .append("\n===== ").append(node).append(": ").append(node.cliLogFile()).append(" (tail)\n")
                        .append(node.cliLogTail(FAILURE_LOG_LINES / 2)).append('\n');
                if (!node.trappedRequests().isEmpty()) {
                    report.append("===== ").append(node).append(" tried to leave the machine: ")
                            .append(node.trappedRequests()).append('\n');
                }
            }
            if (!report.isEmpty()) {
                System.err.println("[" + context.getDisplayName() + "] failed; node logs:" + report);
            }
        }
        RuntimeException failure = null;
        for (TailscaleNode node : nodes) {
            try {
                node.close();
            } catch (RuntimeException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        nodes.clear();
        deleteTree(workDir);
        if (failure != null) {
            throw failure;
        }
    }

    /** {@code restartKeepsTheStateDir} or, for a parameterized test, {@code restartKeepsTheStateDir-1-v1.80.3-capver-113}. */
    private static String testDirName(ExtensionContext context) {
        String method = context.getRequiredTestMethod().getName();
        String display = context.getDisplayName();
        if (display.startsWith(method)) {
            return method;
        }
        return method + "-" + display.replaceAll("[^A-Za-z0-9.]+", "-").replaceAll("^-+|-+$", "");
    }

    private static void deleteTree(Path dir) {
        if (dir == null || !Files.exists(dir)) {
            return;
        }
        try {
            Files.walkFileTree(dir, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    Files.delete(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
                    Files.delete(d);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException("cannot remove " + dir, e);
        }
    }
}
