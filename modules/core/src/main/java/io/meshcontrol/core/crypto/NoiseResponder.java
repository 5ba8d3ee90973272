package io.meshcontrol.core.crypto;

import io.meshcontrol.core.key.MachinePrivateKey;
import io.meshcontrol.core.key.MachinePublicKey;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.function.Supplier;

/**
 * The server side of the ts2021 handshake: Noise IK with the server's machine key as the responder's static key.
 * Stateless apart from the key and the {@code ss} secrets it keeps per client ({@link StaticSecrets}), so one instance
 * serves all connections concurrently.
 *
 * <p>The client sends its initiation before the protocol switch, base64 in the {@code X-Tailscale-Handshake} header
 * of {@code POST /ts2021}; {@link #respond(byte[])} takes the decoded bytes. The protocol version comes from the
 * initiation's first two bytes, as in Tailscale's server: it goes into the prologue, so a header that lies about it
 * fails the handshake.
 */
public final class NoiseResponder {

    private static final byte[] EMPTY_PAYLOAD = new byte[0];

    private final MachinePrivateKey serverKey;
    private final Supplier<MachinePrivateKey> ephemeralKeys;
    private final StaticSecrets staticSecrets;

    public NoiseResponder(MachinePrivateKey serverKey) {
        this(serverKey, MachinePrivateKey::generate);
    }

    /** With chosen ephemeral keys, for known-answer tests. */
    NoiseResponder(MachinePrivateKey serverKey, Supplier<MachinePrivateKey> ephemeralKeys) {
        this.serverKey = serverKey;
        this.ephemeralKeys = ephemeralKeys;
        this.staticSecrets = new StaticSecrets(serverKey);
    }

    /** The key clients must know in advance (served at {@code GET /key}). */
    public MachinePublicKey publicKey() {
        return serverKey.publicKey();
    }

    /**
     * Validates a client's initiation and answers it.
     *
     * @param initiation the 101 bytes decoded from the upgrade header
     * @throws NoiseProtocolException when the initiation is malformed (then {@link NoiseProtocolException#clientHint()}
     *                                holds the text Tailscale's server sends back in an error frame) or does not
     *                                authenticate ({@code HANDSHAKE_FAILED}, no hint: the connection is just closed)
     */
    public AcceptedHandshake respond(byte[] initiation) throws NoiseProtocolException {
        if (initiation.length != NoiseFrames.INITIATION_LENGTH) {
            throw NoiseProtocolException.refusedInitiation(NoiseProtocolException.Problem.WRONG_INITIATION_SIZE,
                    "wrong handshake initiation size");
        }
        if (initiation[2] != MessageType.INITIATION.value()) {
            throw NoiseProtocolException.refusedInitiation(NoiseProtocolException.Problem.UNEXPECTED_MESSAGE_TYPE,
                    "unexpected handshake message type");
        }
        if (NoiseFrames.declaredLength(initiation, 2) != NoiseFrames.INITIATION_PAYLOAD_LENGTH) {
            throw NoiseProtocolException.refusedInitiation(NoiseProtocolException.Problem.WRONG_LENGTH,
                    "wrong handshake initiation length");
        }
        int protocolVersion = NoiseFrames.initiationVersion(initiation);

        IkHandshake handshake = IkHandshake.responder(ControlPrologue.forVersion(protocolVersion),
                ephemeralKeys.get(), staticSecrets);
        handshake.readInitiation(Arrays.copyOfRange(initiation, NoiseFrames.INITIATION_HEADER_LENGTH,
                initiation.length));
        byte[] payload = handshake.writeResponse(EMPTY_PAYLOAD);

        ByteBuffer response = ByteBuffer.allocate(NoiseFrames.RESPONSE_LENGTH);
        NoiseFrames.putHeader(response, MessageType.RESPONSE, NoiseFrames.RESPONSE_PAYLOAD_LENGTH);
        response.put(payload);

        IkHandshake.SessionKeys keys = handshake.split();
        // The server sends with the second key and receives with the first (Noise's Split order).
        NoiseTransport transport = new NoiseTransport(keys.responderToInitiator(), keys.initiatorToResponder(),
                keys.handshakeHash());
        return new AcceptedHandshake(response.array(), transport, handshake.remoteStatic(), protocolVersion);
    }
}
