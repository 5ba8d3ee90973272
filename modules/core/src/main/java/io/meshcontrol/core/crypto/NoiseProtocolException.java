package io.meshcontrol.core.crypto;

import java.io.IOException;
import java.util.Optional;

/**
 * The peer broke the ts2021 Noise protocol, or the connection can no longer be used safely. {@link #problem()} names
 * what happened; after any of these the connection must be closed.
 */
public final class NoiseProtocolException extends IOException {

    /** What went wrong. */
    public enum Problem {
        /** The initiation is not exactly 101 bytes. */
        WRONG_INITIATION_SIZE,
        /** A known message type arrived where another was expected (e.g. a response where a record belongs). */
        UNEXPECTED_MESSAGE_TYPE,
        /** The type byte is none of the four message types. */
        UNKNOWN_MESSAGE_TYPE,
        /** A handshake message's length field does not match its fixed payload size. */
        WRONG_LENGTH,
        /** A frame's length field makes it bigger than 4096 bytes, header included. */
        FRAME_TOO_LARGE,
        /** Fewer bytes than the header and length field promise. */
        TRUNCATED_FRAME,
        /** More bytes than one frame where exactly one was expected. */
        TRAILING_BYTES,
        /** A record shorter than the 16-byte authentication tag. */
        RECORD_TOO_SHORT,
        /** The handshake did not authenticate: wrong server key, tampering, or a low-order public key. */
        HANDSHAKE_FAILED,
        /** The server answered the initiation with an error message (unauthenticated, a hint only). */
        SERVER_ERROR,
        /** A record did not authenticate. The receiving side is unusable from then on. */
        DECRYPTION_FAILED,
        /** A direction used its last nonce (2^64 - 2); the connection needs a new handshake. */
        CIPHER_EXHAUSTED,
        /** An earlier failure left this side of the connection unusable. */
        CONNECTION_BROKEN,
        /** An early payload announced more JSON than the 10 MiB the client accepts. */
        EARLY_PAYLOAD_TOO_LARGE
    }

    private final Problem problem;
    private final String clientHint;

    NoiseProtocolException(Problem problem, String message) {
        this(problem, message, null, null);
    }

    NoiseProtocolException(Problem problem, String message, Throwable cause) {
        this(problem, message, null, cause);
    }

    private NoiseProtocolException(Problem problem, String message, String clientHint, Throwable cause) {
        super(message, cause);
        this.problem = problem;
        this.clientHint = clientHint;
    }

    /** A malformed initiation, which Tailscale's server answers with an error frame holding {@code clientHint}. */
    static NoiseProtocolException refusedInitiation(Problem problem, String clientHint) {
        return new NoiseProtocolException(problem, "refused handshake initiation: " + clientHint, clientHint, null);
    }

    public Problem problem() {
        return problem;
    }

    /**
     * The fixed text Tailscale's server sends back in an error frame for this problem, if it sends one: only for
     * malformed initiations. The text never echoes the client's bytes. See {@link NoiseFrames#errorFrame(String)}.
     */
    public Optional<String> clientHint() {
        return Optional.ofNullable(clientHint);
    }
}
