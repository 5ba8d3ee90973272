package io.meshcontrol.core.key;

import io.meshcontrol.core.OwnerOnlyFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.SecureRandom;

/**
 * A machine's private key (text form {@code privkey:}, the same prefix Tailscale uses for node private keys). The
 * control server keeps one for its whole life: clients pin its public half, so losing it disconnects every node.
 */
public final class MachinePrivateKey extends Curve25519Key {

    /** Prefix of the text form, shared with {@link NodePrivateKey}. */
    public static final String PREFIX = "privkey:";


    /** Computed on first use; a race computes the same value twice, which is harmless. */
    private MachinePublicKey publicKey;

    private MachinePrivateKey(byte[] raw) {
        super(raw);
    }

    /** A new random key. */
    public static MachinePrivateKey generate() {
        return new MachinePrivateKey(X25519.generatePrivateKey());
    }

    /** A new random key from the given source. */
    public static MachinePrivateKey generate(SecureRandom random) {
        return new MachinePrivateKey(X25519.generatePrivateKey(random));
    }

    /** Wraps 32 raw bytes (copied). No clamping is applied; X25519 clamps when it uses the key. */
    public static MachinePrivateKey fromRaw(byte[] raw) {
        return new MachinePrivateKey(raw);
    }

    /**
     * Parses the text form {@code privkey:<64 hex>}.
     *
     * @throws KeyFormatException naming a wrong prefix, a wrong length or a non-hex character
     */
    public static MachinePrivateKey parse(String text) {
        return new MachinePrivateKey(KeyText.parse(text, PREFIX));
    }

    /** The public half. */
    public MachinePublicKey publicKey() {
        MachinePublicKey result = publicKey;
        if (result == null) {
            result = MachinePublicKey.fromRaw(X25519.publicKey(bytes()));
            publicKey = result;
        }
        return result;
    }

    /**
     * Loads the key stored at {@code file} ({@code noise.private_key_path}), or creates a new one there when the file
     * does not exist. A new file holds the text form and a newline and has mode 0600 where the file system has POSIX
     * permissions; it is written to a temporary file beside it and renamed, so a crash never leaves half a key. Missing
     * parent directories are created with mode 0700.
     *
     * @throws IOException when the file cannot be read or written, or holds no valid private key (the message names the
     *                     file and the problem, never the key)
     */
    public static MachinePrivateKey loadOrCreate(Path file) throws IOException {
        try {
            return load(file);
        } catch (NoSuchFileException e) {
            MachinePrivateKey created = generate();
            created.store(file);
            return created;
        }
    }

    /** Loads a key written by {@link #loadOrCreate(Path)} (surrounding whitespace is ignored). */
    public static MachinePrivateKey load(Path file) throws IOException {
        String text = Files.readString(file, StandardCharsets.UTF_8).strip();
        MachinePrivateKey key;
        try {
            key = parse(text);
        } catch (KeyFormatException e) {
            throw new IOException("machine key file " + file + " does not hold a private key: " + e.getMessage(), e);
        }
        if (key.isZero()) {
            throw new IOException("machine key file " + file + " holds the zero key");
        }
        return key;
    }

    /**
     * Writes the key to {@code file} as {@link #loadOrCreate} does, replacing what is there: how an imported Noise key
     * ({@code svc import headscale}) becomes the server's.
     */
    public void store(Path file) throws IOException {
        OwnerOnlyFiles.write(file, (toText() + "\n").getBytes(StandardCharsets.US_ASCII));
    }

    /** Never shows the key: use {@link #toText()} deliberately when it must be written out. */
    @Override
    public String toString() {
        return "MachinePrivateKey[public=" + publicKey().toText() + "]";
    }

    @Override
    String prefix() {
        return PREFIX;
    }
}
