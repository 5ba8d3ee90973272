package io.meshcontrol.api;

/** The server did not answer, or answered with something that is not our API. */
public final class ServerUnreachableException extends RuntimeException {

    public ServerUnreachableException(String message, Throwable cause) {
        super(message, cause);
    }
}
