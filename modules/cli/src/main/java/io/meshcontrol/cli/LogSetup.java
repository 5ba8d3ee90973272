package io.meshcontrol.cli;

import io.meshcontrol.core.config.LogLevel;
import io.meshcontrol.core.config.MeshConfig;
import io.meshcontrol.server.http.LoggedRequest;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Instant;
import java.util.logging.ConsoleHandler;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import tools.jackson.core.JsonGenerator;

/** One line per log record on stderr, at the configured level; every library logs through java.util.logging. */
final class LogSetup {

    /** JUL holds loggers weakly; a level set on a collected logger is lost, so keep them. */
    private static final java.util.List<Logger> CONFIGURED = new java.util.ArrayList<>();

    private LogSetup() {
    }

    static void configure(LogLevel level, MeshConfig.Log.Format format) {
        Logger root = Logger.getLogger("");
        for (Handler handler : root.getHandlers()) {
            root.removeHandler(handler);
        }
        ConsoleHandler console = new ConsoleHandler();
        console.setLevel(Level.ALL);
        console.setFormatter(switch (format) {
            case TEXT -> new OneLine();
            case JSON -> new JsonLine();
        });
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

    /**
     * {@code log.format: json}: one JSON object a line, for log pipelines (Loki, Elasticsearch, journald) that would
     * otherwise parse the text lines. Fields: {@code time} (RFC 3339, UTC), {@code level} (the {@code log.level}
     * word), {@code logger}, {@code message}; {@code error} (the stack trace) when a throwable was logged; and, on a
     * line logged while a request was served, {@code request} with {@code method}, {@code route}, {@code path} and
     * {@code client}, and {@code error_id} on the line of the failure a 500 answer names.
     */
    static final class JsonLine extends Formatter {
        @Override
        public String format(LogRecord record) {
            StringWriter line = new StringWriter();
            try (JsonGenerator json = Output.jsonLine(line)) {
                json.writeStartObject();
                json.writeStringProperty("time", Instant.ofEpochMilli(record.getMillis()).toString());
                json.writeStringProperty("level", levelName(record.getLevel()));
                json.writeStringProperty("logger", record.getLoggerName());
                json.writeStringProperty("message", formatMessage(record));
                if (record.getThrown() != null) {
                    StringWriter trace = new StringWriter();
                    record.getThrown().printStackTrace(new PrintWriter(trace));
                    json.writeStringProperty("error", trace.toString());
                }
                LoggedRequest.current().ifPresent(request -> {
                    if (request.errorId() != null) {
                        json.writeStringProperty("error_id", request.errorId());
                    }
                    json.writeName("request");
                    json.writeStartObject();
                    json.writeStringProperty("method", request.method());
                    json.writeStringProperty("route", request.route());
                    json.writeStringProperty("path", request.path());
                    json.writeStringProperty("client", request.client());
                    json.writeEndObject();
                });
                json.writeEndObject();
            }
            return line.append('\n').toString();
        }

        /** The {@code log.level} word for a JUL level, so that a pipeline filters with the words the config uses. */
        static String levelName(Level level) {
            int value = level.intValue();
            if (value >= Level.SEVERE.intValue()) {
                return LogLevel.ERROR.configName();
            } else if (value >= Level.WARNING.intValue()) {
                return LogLevel.WARN.configName();
            } else if (value >= Level.INFO.intValue()) {
                return LogLevel.INFO.configName();
            } else if (value >= Level.FINE.intValue()) {
                return LogLevel.DEBUG.configName();
            }
            return LogLevel.TRACE.configName();
        }
    }
}
