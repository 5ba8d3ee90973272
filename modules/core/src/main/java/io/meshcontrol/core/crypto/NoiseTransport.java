package io.meshcontrol.core.crypto;

/**
 * An established ts2021 session: a {@link RecordEncoder} for what this side sends and a {@link RecordDecoder} for what
 * it receives, each with its own key and counter. The two directions are independent, so one thread may write while
 * another reads; each direction by itself is single-threaded.
 */
public final class NoiseTransport {

    private final RecordEncoder encoder;
    private final RecordDecoder decoder;
    private final byte[] handshakeHash;

    NoiseTransport(byte[] sendKey, byte[] receiveKey, byte[] handshakeHash) {
        this(new TransportCipher(sendKey), new TransportCipher(receiveKey), handshakeHash);
    }

    NoiseTransport(TransportCipher send, TransportCipher receive, byte[] handshakeHash) {
        this.encoder = new RecordEncoder(send);
        this.decoder = new RecordDecoder(receive);
        this.handshakeHash = handshakeHash.clone();
    }

    /** This side's outgoing records. */
    public RecordEncoder encoder() {
        return encoder;
    }

    /** This side's incoming records. */
    public RecordDecoder decoder() {
        return decoder;
    }

    /** One record holding {@code plaintext} (at most 4077 bytes); see {@link RecordEncoder#encrypt(byte[])}. */
    public byte[] encrypt(byte[] plaintext) throws NoiseProtocolException {
        return encoder.encrypt(plaintext);
    }

    /** The plaintext of one whole record frame; see {@link RecordDecoder#decrypt(byte[])}. */
    public byte[] decrypt(byte[] record) throws NoiseProtocolException {
        return decoder.decrypt(record);
    }

    /**
     * The final Noise handshake hash: the same on both sides and unique to this session, so it can bind other messages
     * to this connection.
     */
    public byte[] handshakeHash() {
        return handshakeHash.clone();
    }
}
