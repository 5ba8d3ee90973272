package io.meshcontrol.core.state;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;

/**
 * Reloads the policy file when its folder changes (policy file mode). The folder is watched rather than the file
 * because editors and configuration managers replace files (write a new one, rename it over the old, or swap a
 * symlink); any change there triggers {@link Policies#reloadIfChanged}, which does nothing when the text is the same.
 */
public final class PolicyFileWatcher implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(PolicyFileWatcher.class.getName());

    private final WatchService watcher;
    private final Thread thread;

    private PolicyFileWatcher(WatchService watcher, Policies policies) {
        this.watcher = watcher;
        this.thread = Thread.ofPlatform().name("policy-file-watcher").daemon().start(() -> watch(policies));
    }

    /** Starts watching the folder of the policies' file ({@link Policies#useFile} must have been called). */
    public static PolicyFileWatcher start(Policies policies) {
        Path file = policies.file();
        if (file == null) {
            throw new IllegalStateException("the policy is not read from a file");
        }
        Path folder = file.toAbsolutePath().getParent();
        try {
            WatchService watcher = FileSystems.getDefault().newWatchService();
            folder.register(watcher, StandardWatchEventKinds.ENTRY_CREATE, StandardWatchEventKinds.ENTRY_MODIFY,
                    StandardWatchEventKinds.ENTRY_DELETE);
            return new PolicyFileWatcher(watcher, policies);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot watch " + folder + " for policy changes", e);
        }
    }

    private void watch(Policies policies) {
        try {
            while (true) {
                WatchKey key = watcher.take();
                key.pollEvents(); // which entry changed does not matter: reload compares the text
                policies.reloadIfChanged();
                if (!key.reset()) {
                    LOG.log(Level.WARNING, "the policy file's folder is gone; changes are no longer picked up "
                            + "(SIGHUP still reloads)");
                    return;
                }
            }
        } catch (InterruptedException | ClosedWatchServiceException stopped) {
            // closed
        } catch (RuntimeException e) {
            LOG.log(Level.ERROR, "policy file watcher stopped", e);
        }
    }

    @Override
    public void close() {
        try {
            watcher.close();
        } catch (IOException e) {
            LOG.log(Level.DEBUG, "closing the policy file watcher", e);
        }
        thread.interrupt();
    }
}
