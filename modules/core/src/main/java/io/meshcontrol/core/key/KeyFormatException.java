package io.meshcontrol.core.key;

/**
 * A key's text form could not be parsed. The message names the problem but never repeats the input, because the
 * input may be (part of) a private key.
 */
public final class KeyFormatException extends IllegalArgumentException {

    /** What was wrong with the text. */
    public enum Problem {
        /** The text does not start with the prefix of the expected key type. */
        WRONG_PREFIX,
        /** The part after the prefix is not exactly 64 characters. */
        WRONG_LENGTH,
        /** The part after the prefix holds a character that is not a hex digit. */
        INVALID_HEX
    }

    private final Problem problem;

    KeyFormatException(Problem problem, String message) {
        super(message);
        this.problem = problem;
    }

    public Problem problem() {
        return problem;
    }
}
