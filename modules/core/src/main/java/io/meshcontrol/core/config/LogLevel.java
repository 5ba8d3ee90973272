package io.meshcontrol.core.config;

import java.util.Locale;
import java.util.logging.Level;

/** {@code log.level}: headscale's (zerolog's) seven level names, most severe first. */
public enum LogLevel implements ConfigChoice {
    PANIC, FATAL, ERROR, WARN, INFO, DEBUG, TRACE;

    @Override
    public String configName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The java.util.logging threshold for this level. JUL has no panic or fatal, so those three severe levels share
     * {@code SEVERE}; debug is {@code FINE} and trace {@code FINEST}, so trace also shows {@code FINER} detail.
     */
    public Level julLevel() {
        return switch (this) {
            case PANIC, FATAL, ERROR -> Level.SEVERE;
            case WARN -> Level.WARNING;
            case INFO -> Level.INFO;
            case DEBUG -> Level.FINE;
            case TRACE -> Level.FINEST;
        };
    }
}
