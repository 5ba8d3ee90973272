package io.meshcontrol.core.crypto;

import io.meshcontrol.core.key.X25519;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.util.Arrays;
import org.bouncycastle.crypto.engines.Salsa20Engine;
import org.bouncycastle.crypto.engines.XSalsa20Engine;
import org.bouncycastle.crypto.macs.Poly1305;
import org.bouncycastle.crypto.params.KeyParameter;
import org.bouncycastle.crypto.params.ParametersWithIV;

/**
 * NaCl's {@code crypto_box}: X25519 agreement, HSalsa20 to derive the box key, XSalsa20-Poly1305 to seal. Tailscale's
 * DERP handshake seals {@code ClientInfo} and {@code ServerInfo} this way ({@code key.NodePrivate.SealTo/OpenFrom}),
 * with the 24-byte nonce written in front of the box.
 *
 * <p>The sealed form is NaCl's: the 16-byte Poly1305 tag, then the ciphertext. The XSalsa20 key stream's first 32
 * bytes are the one-time Poly1305 key and are not used for encryption, so the message is XORed from byte 32 on.
 */
public final class NaclBox {

    public static final int NONCE_LENGTH = 24;
    public static final int TAG_LENGTH = 16;
    private static final int POLY_KEY_LENGTH = 32;
    /** HSalsa20's input constant: "expand 32-byte k" as little-endian words. */
    private static final int[] SIGMA = {0x61707865, 0x3320646e, 0x79622d32, 0x6b206574};

    private NaclBox() {
    }

    /** Seals {@code message} from {@code ourPrivate} to {@code theirPublic}: tag then ciphertext, nonce not included. */
    public static byte[] seal(byte[] message, byte[] nonce, byte[] theirPublic, byte[] ourPrivate)
            throws InvalidKeyException {
        byte[] stream = keyStream(boxKey(theirPublic, ourPrivate), nonce, POLY_KEY_LENGTH + message.length);
        byte[] out = new byte[TAG_LENGTH + message.length];
        for (int i = 0; i < message.length; i++) {
            out[TAG_LENGTH + i] = (byte) (message[i] ^ stream[POLY_KEY_LENGTH + i]);
        }
        byte[] tag = poly1305(Arrays.copyOf(stream, POLY_KEY_LENGTH), out, TAG_LENGTH, message.length);
        System.arraycopy(tag, 0, out, 0, TAG_LENGTH);
        return out;
    }

    /**
     * Opens a box sealed by the holder of {@code theirPublic} to {@code ourPrivate}.
     *
     * @throws InvalidKeyException when the box is too short, does not authenticate, or the public key is low-order
     */
    public static byte[] open(byte[] box, byte[] nonce, byte[] theirPublic, byte[] ourPrivate)
            throws InvalidKeyException {
        if (box.length < TAG_LENGTH) {
            throw new InvalidKeyException("box of " + box.length + " bytes is shorter than its tag");
        }
        int length = box.length - TAG_LENGTH;
        byte[] stream = keyStream(boxKey(theirPublic, ourPrivate), nonce, POLY_KEY_LENGTH + length);
        byte[] expected = poly1305(Arrays.copyOf(stream, POLY_KEY_LENGTH), box, TAG_LENGTH, length);
        if (!MessageDigest.isEqual(expected, Arrays.copyOf(box, TAG_LENGTH))) {
            throw new InvalidKeyException("box does not authenticate");
        }
        byte[] message = new byte[length];
        for (int i = 0; i < length; i++) {
            message[i] = (byte) (box[TAG_LENGTH + i] ^ stream[POLY_KEY_LENGTH + i]);
        }
        return message;
    }

    /** {@code crypto_box_beforenm}: HSalsa20 of the X25519 shared secret with a zero input. */
    static byte[] boxKey(byte[] theirPublic, byte[] ourPrivate) throws InvalidKeyException {
        return hsalsa20(X25519.sharedSecret(ourPrivate, theirPublic), new byte[16]);
    }

    /**
     * HSalsa20: the Salsa20 core without its final addition, keeping words 0, 5, 10, 15, 6, 7, 8, 9. Bouncy Castle's
     * {@code salsaCore} adds the input back, so it is subtracted again here.
     */
    static byte[] hsalsa20(byte[] key, byte[] input16) {
        int[] state = new int[16];
        state[0] = SIGMA[0];
        state[5] = SIGMA[1];
        state[10] = SIGMA[2];
        state[15] = SIGMA[3];
        for (int i = 0; i < 4; i++) {
            state[1 + i] = le(key, i * 4);
            state[11 + i] = le(key, 16 + i * 4);
            state[6 + i] = le(input16, i * 4);
        }
        int[] x = new int[16];
        Salsa20Engine.salsaCore(20, state, x);
        int[] pick = {0, 5, 10, 15, 6, 7, 8, 9};
        byte[] out = new byte[32];
        for (int i = 0; i < pick.length; i++) {
            int word = x[pick[i]] - state[pick[i]];
            out[i * 4] = (byte) word;
            out[i * 4 + 1] = (byte) (word >>> 8);
            out[i * 4 + 2] = (byte) (word >>> 16);
            out[i * 4 + 3] = (byte) (word >>> 24);
        }
        return out;
    }

    private static byte[] keyStream(byte[] key, byte[] nonce, int length) {
        if (nonce.length != NONCE_LENGTH) {
            throw new IllegalArgumentException("a box nonce has " + NONCE_LENGTH + " bytes, got " + nonce.length);
        }
        XSalsa20Engine engine = new XSalsa20Engine();
        engine.init(true, new ParametersWithIV(new KeyParameter(key), nonce));
        byte[] stream = new byte[length];
        engine.processBytes(new byte[length], 0, length, stream, 0);
        return stream;
    }

    private static byte[] poly1305(byte[] key, byte[] data, int offset, int length) {
        Poly1305 mac = new Poly1305();
        mac.init(new KeyParameter(key));
        mac.update(data, offset, length);
        byte[] tag = new byte[TAG_LENGTH];
        mac.doFinal(tag, 0);
        return tag;
    }

    private static int le(byte[] b, int offset) {
        return (b[offset] & 0xff) | (b[offset + 1] & 0xff) << 8 | (b[offset + 2] & 0xff) << 16
                | (b[offset + 3] & 0xff) << 24;
    }
}
