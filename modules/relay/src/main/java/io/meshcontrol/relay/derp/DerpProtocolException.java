package io.meshcontrol.relay.derp;

/** A client broke the DERP protocol; its connection is closed, nobody else is affected. */
public final class DerpProtocolException extends Exception {

    public DerpProtocolException(String message) {
        super(message);
    }
}
