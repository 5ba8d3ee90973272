package io.meshcontrol.core;

/**
 * A place in a text a person wrote (a policy file): 1-based line and column, as editors count them, so that an
 * error can be marked where it is.
 */
public record TextPosition(int line, int column) {

    public TextPosition {
        if (line < 1 || column < 1) {
            throw new IllegalArgumentException("line and column count from 1");
        }
    }

    /** {@code line 4, column 12}: how error texts name the place. */
    @Override
    public String toString() {
        return "line " + line + ", column " + column;
    }
}
