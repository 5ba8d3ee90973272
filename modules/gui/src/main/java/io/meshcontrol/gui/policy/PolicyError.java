package io.meshcontrol.gui.policy;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A validation error of the policy and the line of the text it points at (0 when it cannot be placed). The server's
 * errors are the vendor's texts, which name what is wrong but seldom a line: the line is the one the error states
 * ("line 4"), else the first line holding a name the error quotes ({@code group not found: "group:eng"}).
 */
public record PolicyError(int line, String message) {

    private static final Pattern LINE = Pattern.compile("\\bline (\\d+)");
    private static final Pattern QUOTED = Pattern.compile("\"([^\"]+)\"");

    public static PolicyError locate(String text, String message) {
        Matcher stated = LINE.matcher(message);
        if (stated.find()) {
            return new PolicyError(Integer.parseInt(stated.group(1)), message);
        }
        String[] lines = text.split("\n", -1);
        Matcher quoted = QUOTED.matcher(message);
        while (quoted.find()) {
            String name = "\"" + quoted.group(1) + "\"";
            for (int i = 0; i < lines.length; i++) {
                if (lines[i].contains(name)) {
                    return new PolicyError(i + 1, message);
                }
            }
        }
        return new PolicyError(0, message);
    }

    @Override
    public String toString() {
        return (line > 0 ? "Line " + line + ": " : "") + message;
    }
}
