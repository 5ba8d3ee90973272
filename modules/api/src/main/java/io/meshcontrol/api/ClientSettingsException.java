package io.meshcontrol.api;

/** A {@code cli.*} setting is wrong; the message names the key, the value and where it was set, in one line. */
public final class ClientSettingsException extends RuntimeException {

    public ClientSettingsException(String message) {
        super(message);
    }
}
