package io.meshcontrol.core.crypto;

import java.util.Optional;

/** The first byte of every ts2021 frame (the third byte of an initiation, after the protocol version). */
public enum MessageType {
    /** Client to server: the Noise IK first message. Sent in the upgrade request's header, not on the stream. */
    INITIATION(1),
    /** Server to client: the Noise IK second message. */
    RESPONSE(2),
    /**
     * Server to client instead of a response: a human-readable refusal. Neither encrypted nor authenticated, so the
     * client may treat it only as a hint.
     */
    ERROR(3),
    /** Either direction after the handshake: one encrypted piece of the application byte stream. */
    RECORD(4);

    private final byte value;

    MessageType(int value) {
        this.value = (byte) value;
    }

    /** The byte on the wire. */
    public byte value() {
        return value;
    }

    /** The type with this wire value, or empty for a byte that is no message type. */
    public static Optional<MessageType> of(byte value) {
        for (MessageType type : values()) {
            if (type.value == value) {
                return Optional.of(type);
            }
        }
        return Optional.empty();
    }
}
