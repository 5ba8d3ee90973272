package io.meshcontrol.core;

/** No connection could be made to the configured database server; the message says where it was looked for. */
public final class DatabaseUnreachable extends RuntimeException {

    public DatabaseUnreachable(String message, Throwable cause) {
        super(message, cause);
    }
}
