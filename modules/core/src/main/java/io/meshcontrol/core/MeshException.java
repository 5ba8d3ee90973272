package io.meshcontrol.core;

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

    public MeshException(Reason reason, String message) {
        super(message);
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
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
