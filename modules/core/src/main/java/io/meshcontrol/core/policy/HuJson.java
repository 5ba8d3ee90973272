package io.meshcontrol.core.policy;

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
            String where = e.getLocation() == null ? "" : "line " + e.getLocation().getLineNr() + ", column "
                    + e.getLocation().getColumnNr() + ": ";
            throw new PolicyException("parsing policy: " + where + e.getOriginalMessage());
        }
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
