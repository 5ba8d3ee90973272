package io.meshcontrol.core.config;

/** Quotes a value for a message, so an empty or space-padded value is visible: {@code "loud"}, {@code ""}. */
final class Quote {

    private Quote() {
    }

    static String of(String text) {
        StringBuilder quoted = new StringBuilder(text.length() + 2).append('"');
        for (char c : text.toCharArray()) {
            switch (c) {
                case '"' -> quoted.append("\\\"");
                case '\\' -> quoted.append("\\\\");
                case '\n' -> quoted.append("\\n");
                case '\t' -> quoted.append("\\t");
                default -> quoted.append(c);
            }
        }
        return quoted.append('"').toString();
    }
}
