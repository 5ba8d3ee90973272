package io.meshcontrol.relay.derp;

import java.nio.ByteBuffer;

/** One DERP frame: its type and payload. */
public record Frame(byte type, byte[] payload) {

    /** The frame on the wire: type, big-endian length, payload. */
    public byte[] encode() {
        return ByteBuffer.allocate(FrameType.HEADER_LENGTH + payload.length)
                .put(type).putInt(payload.length).put(payload).array();
    }

    /** A frame whose payload is the given parts one after another. */
    public static Frame of(byte type, byte[]... parts) {
        int length = 0;
        for (byte[] part : parts) {
            length += part.length;
        }
        ByteBuffer payload = ByteBuffer.allocate(length);
        for (byte[] part : parts) {
            payload.put(part);
        }
        return new Frame(type, payload.array());
    }
}
