package io.meshcontrol.server.control;

import io.meshcontrol.core.testing.Await;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

/**
 * Everything logged at INFO or above while open, from any logger in the process: the server's own lines and
 * Undertow's and XNIO's (they log through java.util.logging in tests), so a test can say "exactly this one line".
 */
final class LogCapture implements AutoCloseable {

    private final Logger root = Logger.getLogger("");
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final SimpleFormatter formatter = new SimpleFormatter();
    private final Handler handler = new Handler() {
        @Override
        public void publish(LogRecord record) {
            if (record.getLevel().intValue() >= Level.INFO.intValue()) {
                lines.add(record.getLevel() + " " + record.getLoggerName() + ": " + formatter.formatMessage(record)
                        + (record.getThrown() == null ? "" : " (" + record.getThrown() + ")"));
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    LogCapture() {
        root.addHandler(handler);
    }

    List<String> lines() {
        return List.copyOf(lines);
    }

    /** The lines after waiting a moment, so that a line logged just after a close is not missed. */
    List<String> settledLines() throws InterruptedException {
        Thread.sleep(300);
        return lines();
    }

    /**
     * The lines once there are at least {@code expected} (awaited, so a slow machine is not a failure), after waiting
     * a moment more so that a line too many is seen.
     */
    List<String> settledLines(int expected) throws InterruptedException {
        Await.until(expected + " log lines", Await.DEFAULT_TIMEOUT, () -> lines.size() >= expected, lines::toString);
        return settledLines();
    }

    @Override
    public void close() {
        root.removeHandler(handler);
    }
}
