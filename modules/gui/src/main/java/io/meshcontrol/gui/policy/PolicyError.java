package io.meshcontrol.gui.policy;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A validation error of the policy and where in the text it points (line and column from 1; 0 when it cannot be
 * placed). The server's errors are the vendor's texts, which name what is wrong but seldom a place: the place is the
 * one the error states ("line 4", "line 4, column 7", "4:7"), else the first line holding a name the error quotes
 * ({@code group not found: "group:eng"}), at that name.
 */
public record PolicyError(int line, int column, String message) {

    private static final Pattern PLACE = Pattern.compile("\\bline (\\d+)(?:(?:, column |, col |:)(\\d+))?");
    private static final Pattern QUOTED = Pattern.compile("\"([^\"]+)\"");

    /** An error with no place in the text. */
    public PolicyError(int line, String message) {
        this(line, 0, message);
    }

    public static PolicyError locate(String text, String message) {
        Matcher stated = PLACE.matcher(message);
        if (stated.find()) {
            return new PolicyError(Integer.parseInt(stated.group(1)),
                    stated.group(2) == null ? 0 : Integer.parseInt(stated.group(2)), message);
        }
        String[] lines = text.split("\n", -1);
        Matcher quoted = QUOTED.matcher(message);
        while (quoted.find()) {
            String name = "\"" + quoted.group(1) + "\"";
            for (int i = 0; i < lines.length; i++) {
                int at = lines[i].indexOf(name);
                if (at >= 0) {
                    return new PolicyError(i + 1, at + 2, message); // the name itself, inside its quotes
                }
            }
        }
        return new PolicyError(0, message);
    }

    @Override
    public String toString() {
        return (line > 0 ? "Line " + line + (column > 0 ? ", column " + column : "") + ": " : "") + message;
    }
}
