package io.meshcontrol.core.crypto;

import io.meshcontrol.core.key.MachinePublicKey;

/**
 * What the server has after a valid initiation.
 *
 * @param response        the 51-byte response frame; write it right after the {@code 101 Switching Protocols}, ahead
 *                        of (and ideally in the same flush as) the early payload and any records
 * @param transport       the session's record encoder and decoder, from the server's point of view
 * @param clientKey       the client's machine key, proven by the handshake; bind every request on this connection to it
 * @param protocolVersion the client's protocol (capability) version from the initiation header, which the handshake
 *                        authenticated through the prologue; a server that refuses old clients checks it before sending
 *                        {@code response}
 */
public record AcceptedHandshake(byte[] response, NoiseTransport transport, MachinePublicKey clientKey,
        int protocolVersion) {
}
