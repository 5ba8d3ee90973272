package io.meshcontrol.core.crypto;

import io.meshcontrol.core.key.MachinePrivateKey;
import io.meshcontrol.core.key.MachinePublicKey;
import io.meshcontrol.core.key.X25519;
import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.util.Arrays;
import javax.crypto.AEADBadTagException;

/**
 * The plain Noise IK pattern ({@code Noise_IK_25519_ChaChaPoly_BLAKE2s}, Noise spec revision 34) with an arbitrary
 * prologue and payloads, and with the ephemeral keys passed in. It knows nothing of Tailscale's framing, so the
 * published test vectors can drive it; {@link NoiseInitiator} and {@link NoiseResponder} add the ts2021 prologue,
 * empty payloads and frame headers.
 *
 * <pre>
 * IK:
 *   &lt;- s
 *   ...
 *   -&gt; e, es, s, ss
 *   &lt;- e, ee, se
 * </pre>
 *
 * One instance runs one handshake, for one role, and is then discarded.
 */
final class IkHandshake {

    static final String PROTOCOL_NAME = "Noise_IK_25519_ChaChaPoly_BLAKE2s";

    private static final int KEY_LENGTH = 32;
    private static final int ENCRYPTED_KEY_LENGTH = KEY_LENGTH + NoiseFrames.TAG_LENGTH;

    private enum Step { WRITE_INITIATION, READ_INITIATION, WRITE_RESPONSE, READ_RESPONSE, DONE }

    private final SymmetricState state = new SymmetricState(PROTOCOL_NAME.getBytes(StandardCharsets.US_ASCII));
    private final MachinePrivateKey localStatic;
    private final MachinePrivateKey localEphemeral;
    /** The responder's {@code ss}, which it may keep per initiator; null for the initiator. */
    private final StaticSecrets staticSecrets;
    private MachinePublicKey remoteStatic;
    private MachinePublicKey remoteEphemeral;
    private Step next;
    private boolean complete;

    private IkHandshake(byte[] prologue, MachinePrivateKey localStatic, MachinePrivateKey localEphemeral,
            MachinePublicKey responderStatic, StaticSecrets staticSecrets, Step first) {
        this.localStatic = localStatic;
        this.localEphemeral = localEphemeral;
        this.staticSecrets = staticSecrets;
        this.next = first;
        state.mixHash(prologue);
        // The pre-message "<- s": both sides hash the responder's static key, which the initiator knows beforehand.
        state.mixHash(responderStatic.bytes());
    }

    static IkHandshake initiator(byte[] prologue, MachinePrivateKey localStatic, MachinePrivateKey localEphemeral,
            MachinePublicKey responderStatic) {
        IkHandshake handshake = new IkHandshake(prologue, localStatic, localEphemeral, responderStatic, null,
                Step.WRITE_INITIATION);
        handshake.remoteStatic = responderStatic;
        return handshake;
    }

    static IkHandshake responder(byte[] prologue, MachinePrivateKey localStatic, MachinePrivateKey localEphemeral) {
        return responder(prologue, localEphemeral, new StaticSecrets(localStatic));
    }

    /** A responder taking its {@code ss} from secrets kept across handshakes (their key is the local static key). */
    static IkHandshake responder(byte[] prologue, MachinePrivateKey localEphemeral, StaticSecrets staticSecrets) {
        MachinePrivateKey localStatic = staticSecrets.localStatic();
        return new IkHandshake(prologue, localStatic, localEphemeral, localStatic.publicKey(), staticSecrets,
                Step.READ_INITIATION);
    }

    /** {@code -> e, es, s, ss} and the payload: 32 + 48 + payload + 16 bytes. */
    byte[] writeInitiation(byte[] payload) throws NoiseProtocolException {
        expect(Step.WRITE_INITIATION);
        byte[] ephemeral = localEphemeral.publicKey().bytes();
        state.mixHash(ephemeral);
        byte[] key = state.mixKey(dh(localEphemeral, remoteStatic, "es"));
        byte[] encryptedStatic = state.encryptAndHash(key, localStatic.publicKey().bytes());
        key = state.mixKey(dh(localStatic, remoteStatic, "ss"));
        byte[] encryptedPayload = state.encryptAndHash(key, payload);
        next = Step.READ_RESPONSE;
        return concat(ephemeral, encryptedStatic, encryptedPayload);
    }

    /** Reads {@code -> e, es, s, ss}; learns the initiator's static key and returns the payload. */
    byte[] readInitiation(byte[] message) throws NoiseProtocolException {
        expect(Step.READ_INITIATION);
        next = Step.DONE; // a failed handshake cannot be resumed
        if (message.length < KEY_LENGTH + ENCRYPTED_KEY_LENGTH + NoiseFrames.TAG_LENGTH) {
            throw new NoiseProtocolException(NoiseProtocolException.Problem.HANDSHAKE_FAILED,
                    "handshake initiation too short: " + message.length + " bytes");
        }
        remoteEphemeral = MachinePublicKey.fromRaw(Arrays.copyOfRange(message, 0, KEY_LENGTH));
        state.mixHash(remoteEphemeral.bytes());
        byte[] key = state.mixKey(dh(localStatic, remoteEphemeral, "es"));
        byte[] staticKey = decrypt(key, Arrays.copyOfRange(message, KEY_LENGTH, KEY_LENGTH + ENCRYPTED_KEY_LENGTH),
                "the initiator's static key");
        remoteStatic = MachinePublicKey.fromRaw(staticKey);
        key = state.mixKey(staticSecrets.with(remoteStatic));
        byte[] payload = decrypt(key, Arrays.copyOfRange(message, KEY_LENGTH + ENCRYPTED_KEY_LENGTH, message.length),
                "the initiation payload");
        next = Step.WRITE_RESPONSE;
        return payload;
    }

    /** {@code <- e, ee, se} and the payload: 32 + payload + 16 bytes. */
    byte[] writeResponse(byte[] payload) throws NoiseProtocolException {
        expect(Step.WRITE_RESPONSE);
        byte[] ephemeral = localEphemeral.publicKey().bytes();
        state.mixHash(ephemeral);
        state.mixKey(dh(localEphemeral, remoteEphemeral, "ee"));
        byte[] key = state.mixKey(dh(localEphemeral, remoteStatic, "se"));
        byte[] encryptedPayload = state.encryptAndHash(key, payload);
        next = Step.DONE;
        complete = true;
        return concat(ephemeral, encryptedPayload);
    }

    /** Reads {@code <- e, ee, se} and returns the payload. */
    byte[] readResponse(byte[] message) throws NoiseProtocolException {
        expect(Step.READ_RESPONSE);
        next = Step.DONE;
        if (message.length < KEY_LENGTH + NoiseFrames.TAG_LENGTH) {
            throw new NoiseProtocolException(NoiseProtocolException.Problem.HANDSHAKE_FAILED,
                    "handshake response too short: " + message.length + " bytes");
        }
        remoteEphemeral = MachinePublicKey.fromRaw(Arrays.copyOfRange(message, 0, KEY_LENGTH));
        state.mixHash(remoteEphemeral.bytes());
        state.mixKey(dh(localEphemeral, remoteEphemeral, "ee"));
        byte[] key = state.mixKey(dh(localStatic, remoteEphemeral, "se"));
        byte[] payload = decrypt(key, Arrays.copyOfRange(message, KEY_LENGTH, message.length), "the response payload");
        complete = true;
        return payload;
    }

    /** The other side's static key: known from the start to the initiator, learnt from message 1 by the responder. */
    MachinePublicKey remoteStatic() {
        return remoteStatic;
    }

    /** Split, after both messages: the two transport keys and the final handshake hash. */
    SessionKeys split() {
        if (!complete) {
            throw new IllegalStateException("the handshake has not finished");
        }
        byte[][] keys = state.split();
        return new SessionKeys(keys[0], keys[1], state.handshakeHash());
    }

    /** Transport keys by direction, and the handshake hash that identifies the session. */
    record SessionKeys(byte[] initiatorToResponder, byte[] responderToInitiator, byte[] handshakeHash) {
    }

    private void expect(Step step) {
        if (next != step) {
            throw new IllegalStateException("handshake step " + step + " is not allowed now (next: " + next + ")");
        }
    }

    private byte[] decrypt(byte[] key, byte[] ciphertext, String what) throws NoiseProtocolException {
        try {
            return state.decryptAndHash(key, ciphertext);
        } catch (AEADBadTagException e) {
            throw new NoiseProtocolException(NoiseProtocolException.Problem.HANDSHAKE_FAILED,
                    "cannot decrypt " + what + ": wrong keys or a tampered message", e);
        }
    }

    static byte[] dh(MachinePrivateKey privateKey, MachinePublicKey publicKey, String token)
            throws NoiseProtocolException {
        try {
            return X25519.sharedSecret(privateKey.bytes(), publicKey.bytes());
        } catch (InvalidKeyException e) {
            throw new NoiseProtocolException(NoiseProtocolException.Problem.HANDSHAKE_FAILED,
                    "computing " + token + ": " + e.getMessage(), e);
        }
    }

    private static byte[] concat(byte[]... parts) {
        int length = 0;
        for (byte[] part : parts) {
            length += part.length;
        }
        byte[] out = new byte[length];
        int offset = 0;
        for (byte[] part : parts) {
            System.arraycopy(part, 0, out, offset, part.length);
            offset += part.length;
        }
        return out;
    }
}
