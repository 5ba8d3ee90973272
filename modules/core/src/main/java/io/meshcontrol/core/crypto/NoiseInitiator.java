package io.meshcontrol.core.crypto;

import io.meshcontrol.core.key.MachinePrivateKey;
import io.meshcontrol.core.key.MachinePublicKey;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;

/**
 * The client side of the ts2021 handshake, as a Tailscale client runs it: for our tests and a Java test client.
 * {@link #start} builds the initiation (sent in the upgrade request), {@link #complete(byte[])} takes the server's
 * answer. Single use.
 */
public final class NoiseInitiator {

    private static final byte[] EMPTY_PAYLOAD = new byte[0];

    private final IkHandshake handshake;
    private final byte[] initiation;
    private final int protocolVersion;

    private NoiseInitiator(IkHandshake handshake, byte[] initiation, int protocolVersion) {
        this.handshake = handshake;
        this.initiation = initiation;
        this.protocolVersion = protocolVersion;
    }

    /**
     * Starts a handshake with a fresh ephemeral key.
     *
     * @param protocolVersion the client's capability version, 0 to 65535
     * @throws NoiseProtocolException {@code HANDSHAKE_FAILED} when {@code serverKey} is unusable (a low-order point,
     *                                such as the zero key)
     */
    public static NoiseInitiator start(MachinePrivateKey machineKey, MachinePublicKey serverKey, int protocolVersion)
            throws NoiseProtocolException {
        return start(machineKey, serverKey, protocolVersion, MachinePrivateKey.generate());
    }

    /** With a chosen ephemeral key, for known-answer tests. */
    static NoiseInitiator start(MachinePrivateKey machineKey, MachinePublicKey serverKey, int protocolVersion,
            MachinePrivateKey ephemeralKey) throws NoiseProtocolException {
        IkHandshake handshake = IkHandshake.initiator(ControlPrologue.forVersion(protocolVersion), machineKey,
                ephemeralKey, serverKey);
        byte[] payload = handshake.writeInitiation(EMPTY_PAYLOAD);
        ByteBuffer initiation = ByteBuffer.allocate(NoiseFrames.INITIATION_LENGTH);
        initiation.putShort((short) protocolVersion);
        NoiseFrames.putHeader(initiation, MessageType.INITIATION, NoiseFrames.INITIATION_PAYLOAD_LENGTH);
        initiation.put(payload);
        return new NoiseInitiator(handshake, initiation.array(), protocolVersion);
    }

    /** The 101-byte initiation. */
    public byte[] initiationMessage() {
        return initiation.clone();
    }

    /** The initiation as the {@code X-Tailscale-Handshake} header value: standard base64 with padding. */
    public String initiationHeaderValue() {
        return Base64.getEncoder().encodeToString(initiation);
    }

    public int protocolVersion() {
        return protocolVersion;
    }

    /**
     * Finishes the handshake with the server's first frame: a 51-byte response, or an error frame. Read the 3-byte
     * header first and then {@link NoiseFrames#declaredLength(byte[], int)} more bytes.
     *
     * @return the session, from the client's point of view
     * @throws NoiseProtocolException {@code SERVER_ERROR} with the server's text for an error frame; otherwise naming
     *                                the malformation, or {@code HANDSHAKE_FAILED} when the response does not
     *                                authenticate (e.g. the server does not hold the key we expected)
     */
    public NoiseTransport complete(byte[] frame) throws NoiseProtocolException {
        if (frame.length < NoiseFrames.HEADER_LENGTH) {
            throw new NoiseProtocolException(NoiseProtocolException.Problem.TRUNCATED_FRAME,
                    "truncated handshake response: " + frame.length + " bytes");
        }
        byte type = frame[0];
        int declared = NoiseFrames.declaredLength(frame, 0);
        if (type == MessageType.ERROR.value()) {
            int available = Math.min(declared, frame.length - NoiseFrames.HEADER_LENGTH);
            String text = new String(frame, NoiseFrames.HEADER_LENGTH, available, StandardCharsets.UTF_8);
            throw new NoiseProtocolException(NoiseProtocolException.Problem.SERVER_ERROR,
                    "server refused the handshake: \"" + text + "\"");
        }
        if (type != MessageType.RESPONSE.value()) {
            throw new NoiseProtocolException(MessageType.of(type).isPresent()
                    ? NoiseProtocolException.Problem.UNEXPECTED_MESSAGE_TYPE
                    : NoiseProtocolException.Problem.UNKNOWN_MESSAGE_TYPE,
                    "expected a response (2), got " + NoiseFrames.describe(type));
        }
        if (declared != NoiseFrames.RESPONSE_PAYLOAD_LENGTH) {
            throw new NoiseProtocolException(NoiseProtocolException.Problem.WRONG_LENGTH,
                    "wrong length " + declared + " for the handshake response, want "
                            + NoiseFrames.RESPONSE_PAYLOAD_LENGTH);
        }
        if (frame.length < NoiseFrames.RESPONSE_LENGTH) {
            throw new NoiseProtocolException(NoiseProtocolException.Problem.TRUNCATED_FRAME,
                    "truncated handshake response: " + frame.length + " of " + NoiseFrames.RESPONSE_LENGTH + " bytes");
        }
        if (frame.length > NoiseFrames.RESPONSE_LENGTH) {
            throw new NoiseProtocolException(NoiseProtocolException.Problem.TRAILING_BYTES,
                    (frame.length - NoiseFrames.RESPONSE_LENGTH) + " bytes after the handshake response");
        }
        handshake.readResponse(Arrays.copyOfRange(frame, NoiseFrames.HEADER_LENGTH, frame.length));
        IkHandshake.SessionKeys keys = handshake.split();
        return new NoiseTransport(keys.initiatorToResponder(), keys.responderToInitiator(), keys.handshakeHash());
    }
}
