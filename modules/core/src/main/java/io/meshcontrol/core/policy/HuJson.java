package io.meshcontrol.core.policy;

/**
 * HuJSON ("human JSON", what policy files are written in) to standard JSON: comments ({@code //} and
 * {@code /* *}{@code /}) become spaces and trailing commas before {@code ]} or {@code }} are dropped. Offsets
 * stay the same, so a parser's error position points into the text the user wrote.
 */
public final class HuJson {

    private HuJson() {
    }

    public static String standardize(String text) {
        char[] out = text.toCharArray();
        int length = out.length;
        boolean inString = false;
        int lastComma = -1;
        for (int i = 0; i < length; i++) {
            char c = out[i];
            if (inString) {
                if (c == '\\') {
                    i++;
                } else if (c == '"') {
                    inString = false;
                }
                continue;
            }
            if (c == '"') {
                inString = true;
                lastComma = -1;
            } else if (c == '/' && i + 1 < length && out[i + 1] == '/') {
                while (i < length && out[i] != '\n') {
                    out[i++] = ' ';
                }
            } else if (c == '/' && i + 1 < length && out[i + 1] == '*') {
                int end = text.indexOf("*/", i + 2);
                int stop = end < 0 ? length : end + 2;
                for (; i < stop; i++) {
                    if (out[i] != '\n') {
                        out[i] = ' ';
                    }
                }
                i--;
            } else if (c == ',') {
                lastComma = i;
            } else if (c == ']' || c == '}') {
                if (lastComma >= 0) {
                    out[lastComma] = ' ';
                }
                lastComma = -1;
            } else if (!Character.isWhitespace(c)) {
                lastComma = -1;
            }
        }
        return new String(out);
    }
}
