package io.meshcontrol.api;

/** No credential of a server running on this machine was found (or it could not be read); the message says where. */
public final class LocalServerNotFoundException extends RuntimeException {

    public LocalServerNotFoundException(String message) {
        super(message);
    }
}
