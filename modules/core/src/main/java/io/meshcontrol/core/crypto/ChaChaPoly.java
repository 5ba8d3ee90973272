package io.meshcontrol.core.crypto;

import java.security.GeneralSecurityException;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/** One-shot IETF ChaCha20-Poly1305 (RFC 8439) on the JDK cipher: 32-byte key, 12-byte nonce, 16-byte tag. */
final class ChaChaPoly {

    static final String TRANSFORMATION = "ChaCha20-Poly1305";
    static final String KEY_ALGORITHM = "ChaCha20";
    static final int KEY_LENGTH = 32;
    static final int NONCE_LENGTH = 12;

    private ChaChaPoly() {
    }

    static byte[] seal(byte[] key, byte[] nonce, byte[] associatedData, byte[] plaintext) {
        try {
            Cipher cipher = init(Cipher.ENCRYPT_MODE, key, nonce, associatedData);
            return cipher.doFinal(plaintext);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("ChaCha20-Poly1305 encryption failed", e);
        }
    }

    static byte[] open(byte[] key, byte[] nonce, byte[] associatedData, byte[] ciphertext)
            throws AEADBadTagException {
        try {
            Cipher cipher = init(Cipher.DECRYPT_MODE, key, nonce, associatedData);
            return cipher.doFinal(ciphertext);
        } catch (AEADBadTagException e) {
            throw e;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("ChaCha20-Poly1305 decryption failed", e);
        }
    }

    static Cipher newCipher() {
        try {
            return Cipher.getInstance(TRANSFORMATION);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK has no " + TRANSFORMATION, e);
        }
    }

    private static Cipher init(int mode, byte[] key, byte[] nonce, byte[] associatedData)
            throws GeneralSecurityException {
        Cipher cipher = newCipher();
        cipher.init(mode, new SecretKeySpec(key, KEY_ALGORITHM), new IvParameterSpec(nonce));
        if (associatedData.length > 0) {
            cipher.updateAAD(associatedData);
        }
        return cipher;
    }
}
