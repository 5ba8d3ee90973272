package io.meshcontrol.core.policy;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.TextPosition;
import java.util.Optional;

/**
 * A policy that cannot be used, with the reason in the vendor's words where the vendor has words for it, and where
 * it can be pointed at, the value it is about ({@code subject}, as written in the policy) and so its place in the text.
 */
public final class PolicyException extends RuntimeException {

    private final String subject;
    private final String section;
    private final TextPosition position;

    public PolicyException(String message) {
        this(message, null, null, null);
    }

    /** @param subject the value the problem is about, as written in the policy (a string value or a field name) */
    public PolicyException(String message, String subject) {
        this(message, subject, null, null);
    }

    PolicyException(String message, String subject, String section, TextPosition position) {
        super(message);
        this.subject = subject;
        this.section = section;
        this.position = position;
    }

    /** Where in the policy text the problem is, once {@link #located} found it. */
    public Optional<TextPosition> position() {
        return Optional.ofNullable(position);
    }

    /** The same problem with {@code prefix} before its text ({@code dst="x:22": }), about the same value. */
    PolicyException prefixed(String prefix) {
        return new PolicyException(prefix + getMessage(), subject, section, position);
    }

    /** The same problem, about {@code value} (as written) in top-level section {@code section} (null: anywhere). */
    PolicyException about(String value, String inSection) {
        return new PolicyException(getMessage(), value, inSection, position);
    }

    /**
     * The same problem with its place in {@code text}: the value it is about, or else the first quoted value of its
     * message that stands in the text. Unchanged when it has a place already or none is found.
     */
    PolicyException located(String text) {
        if (position != null) {
            return this;
        }
        return PolicyPositions.find(text, section, subject, getMessage())
                .map(found -> new PolicyException(getMessage(), subject, section, found))
                .orElse(this);
    }

    /** As the product refuses it to a caller: invalid, with the place. */
    public MeshException refused() {
        return MeshException.invalid(getMessage(), position);
    }
}
