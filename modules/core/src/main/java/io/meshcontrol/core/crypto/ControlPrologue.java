package io.meshcontrol.core.crypto;

import java.nio.charset.StandardCharsets;

/**
 * The Noise prologue of the ts2021 handshake: {@code "Tailscale Control Protocol v"} and the protocol version in
 * decimal. Both sides mix it into the handshake hash, so a client and server that disagree about the version in the
 * cleartext initiation header cannot complete the handshake.
 */
final class ControlPrologue {

    static final String PREFIX = "Tailscale Control Protocol v";
    /** The version travels as a u16. */
    static final int MAX_PROTOCOL_VERSION = 0xffff;

    private ControlPrologue() {
    }

    static byte[] forVersion(int protocolVersion) {
        if (protocolVersion < 0 || protocolVersion > MAX_PROTOCOL_VERSION) {
            throw new IllegalArgumentException("protocol version must fit in 16 bits, got " + protocolVersion);
        }
        return (PREFIX + protocolVersion).getBytes(StandardCharsets.US_ASCII);
    }
}
