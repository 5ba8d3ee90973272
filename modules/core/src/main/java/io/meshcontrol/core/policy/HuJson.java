package io.meshcontrol.core.policy;

import io.meshcontrol.core.TextPosition;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.exc.StreamConstraintsException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * HuJSON ("human JSON", what policy files are written in) to standard JSON: comments ({@code //} and
 * {@code /* *}{@code /}) become spaces and trailing commas before {@code ]} or {@code }} are dropped. Offsets
 * stay the same, so a parser's error position points into the text the user wrote.
 */
public final class HuJson {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Pattern UNEXPECTED_CHARACTER = Pattern.compile("^Unexpected character \\('(.+?)' \\(code");
    private static final Pattern QUOTED_TOKEN = Pattern.compile("token '([^']*)'");
    private static final Pattern CLOSE_MARKER = Pattern.compile("marker '(.)': expected '(.)'");

    private HuJson() {
    }

    /**
     * A policy text as a JSON tree. Text the parser refuses is a {@link PolicyException} that names the line and
     * column, or the limit it exceeds (Jackson's own text for a limit names its setting, not the policy's problem).
     */
    public static JsonNode read(String text) {
        try {
            return JSON.readTree(standardize(text));
        } catch (StreamConstraintsException e) {
            throw new PolicyException(e.getOriginalMessage().startsWith("Document nesting depth")
                    ? "parsing policy: nested too deeply (at most "
                            + StreamReadConstraints.defaults().getMaxNestingDepth() + " levels of arrays and objects)"
                    : "parsing policy: a value or name is too long");
        } catch (JacksonException e) {
            // the standardized text has the same offsets, so the parser's line is the line the person wrote
            TextPosition at = e.getLocation() == null || e.getLocation().getLineNr() < 1 ? null
                    : new TextPosition(e.getLocation().getLineNr(), Math.max(1, e.getLocation().getColumnNr()));
            throw new PolicyException("parsing policy: " + (at == null ? "" : at + ": ")
                    + syntaxProblem(e.getOriginalMessage()), null, null, at);
        }
    }

    /**
     * What the parser found wrong, in the product's words: Jackson's texts name its own terms ("Unrecognized token",
     * "field name", "code 125") that a person writing a policy does not use.
     */
    static String syntaxProblem(String parserMessage) {
        String message = parserMessage == null ? "" : parserMessage;
        Matcher unexpected = UNEXPECTED_CHARACTER.matcher(message);
        String found = unexpected.find() ? "unexpected " + printable(unexpected.group(1)) : null;
        if (message.startsWith("Unexpected end-of-input")) {
            return "the policy ends before it is complete: a closing } or ] or \" is missing";
        }
        if (message.startsWith("Unrecognized token")) {
            Matcher token = QUOTED_TOKEN.matcher(message);
            String word = token.find() ? " \"" + token.group(1) + "\"" : "";
            return "unexpected word" + word + ": text must be in double quotes (\"...\"); true, false, null and"
                    + " numbers are written bare";
        }
        if (message.startsWith("Unexpected close marker")) {
            Matcher close = CLOSE_MARKER.matcher(message);
            return close.find() ? "unexpected " + close.group(1) + ", expected " + close.group(2)
                    + " to close what is open" : "a closing bracket does not match the one it closes";
        }
        if (message.startsWith("Illegal unquoted character")) {
            return "a text in double quotes cannot span lines or hold control characters (write \\n or \\t)";
        }
        if (message.startsWith("Unrecognized character escape")) {
            return "unknown escape after a backslash in a text (write \\\\ for a backslash)";
        }
        if (message.startsWith("Duplicate ")) {
            return "a name appears twice in the same object";
        }
        if (found != null) {
            if (message.contains("double-quote to start field name")) {
                return found + ": expected a name in double quotes";
            }
            if (message.contains("colon to separate")) {
                return found + ": expected a colon (:) after the name";
            }
            if (message.contains("comma to separate")) {
                return found + ": expected a comma (,) or the end of the list or object";
            }
            if (message.contains("expected a value") || message.contains("expected a valid value")) {
                return found + ": expected a value (text in double quotes, a number, true, false, null, [ or {)";
            }
            return found;
        }
        if (message.startsWith("Invalid numeric value") || message.contains("Numeric value")) {
            return "a number is not valid";
        }
        return "the policy is not valid HuJSON";
    }

    /** A character as the person sees it: in double quotes; control characters by name. */
    private static String printable(String quoted) {
        if (quoted.length() == 1 && quoted.charAt(0) < ' ') {
            return "control character";
        }
        return quoted.equals("\"") ? "'\"'" : "\"" + quoted + "\"";
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
