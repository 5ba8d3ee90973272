package io.meshcontrol.core;

import java.util.Optional;

/**
 * A request the product refuses, with the reason a caller can act on. Every interface maps the
 * {@link Reason} to its own error shape (HTTP status, CLI exit), so the rule is written once here.
 */
public final class MeshException extends RuntimeException {

    public enum Reason {
        INVALID,
        UNAUTHENTICATED,
        FORBIDDEN,
        NOT_FOUND,
        CONFLICT,
        PRECONDITION_FAILED
    }

    private final Reason reason;
    private final TextPosition position;

    public MeshException(Reason reason, String message) {
        this(reason, message, null);
    }

    private MeshException(Reason reason, String message, TextPosition position) {
        super(message);
        this.reason = reason;
        this.position = position;
    }

    public Reason reason() {
        return reason;
    }

    /** Where in the text the caller sent (a policy) the problem is, when it is at one place. */
    public Optional<TextPosition> position() {
        return Optional.ofNullable(position);
    }

    /** A refused text, with the place the problem is at (null when it is at no one place). */
    public static MeshException invalid(String message, TextPosition position) {
        return new MeshException(Reason.INVALID, message, position);
    }

    public static MeshException invalid(String message) {
        return new MeshException(Reason.INVALID, message);
    }

    public static MeshException forbidden(String message) {
        return new MeshException(Reason.FORBIDDEN, message);
    }

    public static MeshException notFound(String message) {
        return new MeshException(Reason.NOT_FOUND, message);
    }

    public static MeshException conflict(String message) {
        return new MeshException(Reason.CONFLICT, message);
    }

    public static MeshException unauthenticated(String message) {
        return new MeshException(Reason.UNAUTHENTICATED, message);
    }
}
