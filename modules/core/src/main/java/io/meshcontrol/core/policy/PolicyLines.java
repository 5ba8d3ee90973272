package io.meshcontrol.core.policy;

import java.util.ArrayList;
import java.util.List;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.json.JsonFactory;

/**
 * Where the entries of a top-level section ({@code acls}, {@code grants}) start in the policy as written: the line
 * the vendor's ACL preview reports as {@code lineNumber}. HuJSON becomes JSON with the same offsets
 * ({@link HuJson#standardize}), so the parser's lines are the lines of the text the user wrote.
 */
final class PolicyLines {

    private static final JsonFactory JSON = new JsonFactory();

    private PolicyLines() {
    }

    /** The 1-based line of each entry of {@code section}, in order; empty when the section is absent. */
    static List<Integer> of(String text, String section) {
        List<Integer> lines = new ArrayList<>();
        try (JsonParser parser = JSON.createParser(ObjectReadContext.empty(), HuJson.standardize(text))) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                return lines;
            }
            while (parser.nextToken() == JsonToken.PROPERTY_NAME) {
                String name = parser.currentName();
                JsonToken value = parser.nextToken();
                if (name.equals(section) && value == JsonToken.START_ARRAY) {
                    while (parser.nextToken() != JsonToken.END_ARRAY) {
                        lines.add(parser.currentTokenLocation().getLineNr());
                        parser.skipChildren();
                    }
                    return lines;
                }
                parser.skipChildren();
            }
        } catch (JacksonException e) {
            // The policy was parsed already; a text the parser refuses here simply has no line numbers.
        }
        return lines;
    }
}
