package io.meshcontrol.cli;

import io.meshcontrol.core.config.LogLevel;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Instant;
import java.util.logging.ConsoleHandler;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/** One line per log record on stderr, at the configured level; every library logs through java.util.logging. */
final class LogSetup {

    /** JUL holds loggers weakly; a level set on a collected logger is lost, so keep them. */
    private static final java.util.List<Logger> CONFIGURED = new java.util.ArrayList<>();

    private LogSetup() {
    }

    static void configure(LogLevel level) {
        Logger root = Logger.getLogger("");
        for (Handler handler : root.getHandlers()) {
            root.removeHandler(handler);
        }
        ConsoleHandler console = new ConsoleHandler();
        console.setLevel(Level.ALL);
        console.setFormatter(new OneLine());
        root.addHandler(console);
        root.setLevel(level.julLevel());
        // The HTTP stack announces its versions at INFO; that is noise for operators.
        Level libraries = level.julLevel().intValue() < Level.INFO.intValue() ? level.julLevel() : Level.WARNING;
        for (String noisy : new String[] {"org.xnio", "io.undertow", "org.jboss", "org.flywaydb"}) {
            Logger logger = Logger.getLogger(noisy);
            logger.setLevel(libraries);
            CONFIGURED.add(logger);
        }
    }

    /**
     * Messages carry text from clients and the API (node and user names, request details); escaped as the CLI's
     * output is ({@link TerminalText}), a message stays one line and cannot forge another or drive the terminal.
     * A stack trace keeps its line breaks, each of its lines escaped.
     */
    static final class OneLine extends Formatter {
        @Override
        public String format(LogRecord record) {
            StringBuilder line = new StringBuilder()
                    .append(Instant.ofEpochMilli(record.getMillis()))
                    .append(' ').append(record.getLevel().getName())
                    .append(' ').append(record.getLoggerName())
                    .append(": ").append(TerminalText.escape(formatMessage(record))).append('\n');
            if (record.getThrown() != null) {
                StringWriter trace = new StringWriter();
                record.getThrown().printStackTrace(new PrintWriter(trace));
                trace.toString().lines().forEach(traceLine -> line.append(TerminalText.escape(traceLine)).append('\n'));
            }
            return line.toString();
        }
    }
}
