package io.meshcontrol.relay.map;

/** A DERP map source that cannot be used: unreadable, malformed, empty, refused or unreachable. The message names it. */
public final class MapSourceException extends RuntimeException {

    public MapSourceException(String message) {
        super(message);
    }

    public MapSourceException(String message, Throwable cause) {
        super(message, cause);
    }
}
