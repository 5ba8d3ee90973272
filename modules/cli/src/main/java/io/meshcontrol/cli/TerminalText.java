package io.meshcontrol.cli;

/**
 * Text from the server (names, descriptions, problem details, map URLs) made safe to print on a terminal: every
 * character that could move the cursor, clear the screen, start an escape sequence, change a window title or reorder
 * what follows is shown as a visible escape instead: a stored name made of {@code a}, ESC, {@code [2J} prints as
 * {@code a\x1b[2J}, and a right-to-left override as the six characters <code>&#92;u202e</code>.
 *
 * <p>Escaped: C0 controls (tab, newline and carriage return included: a table cell or a message is one line), DEL,
 * C1 controls as {@code \xHH}; the bidirectional formatting characters (U+061C, U+200E, U+200F, U+202A-U+202E,
 * U+2066-U+2069) and the line and paragraph separators (U+2028, U+2029) as <code>&#92;uHHHH</code>. Everything
 * else, letters of any script included, passes unchanged. JSON output escapes the same characters in JSON's own
 * way ({@link Output}).
 */
final class TerminalText {

    private TerminalText() {
    }

    /** {@code text} with every character {@link #isUnsafe unsafe} on a terminal replaced by its escape. */
    static String escape(String text) {
        if (text.chars().noneMatch(TerminalText::isUnsafe)) {
            return text;
        }
        StringBuilder escaped = new StringBuilder(text.length() + 8);
        text.chars().forEach(c -> {
            if (!isUnsafe(c)) {
                escaped.append((char) c);
            } else if (c <= 0xFF) {
                escaped.append(String.format("\\x%02x", c));
            } else {
                escaped.append(String.format("\\u%04x", c));
            }
        });
        return escaped.toString();
    }

    /** True for the characters {@link #escape} replaces (all of them are in the Basic Multilingual Plane). */
    static boolean isUnsafe(int c) {
        return c < 0x20 || (c >= 0x7F && c <= 0x9F)
                || c == 0x061C || c == 0x200E || c == 0x200F
                || (c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069)
                || c == 0x2028 || c == 0x2029;
    }
}
