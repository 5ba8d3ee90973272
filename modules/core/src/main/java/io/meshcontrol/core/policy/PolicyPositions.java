package io.meshcontrol.core.policy;

import io.meshcontrol.core.TextPosition;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.json.JsonFactory;

/**
 * Finds the place of a value a policy error is about: the strings (values and field names) of the policy as written,
 * each with its top-level section and position. HuJSON becomes JSON with the same offsets
 * ({@link HuJson#standardize}), so the parser's positions are those of the text the user wrote.
 */
final class PolicyPositions {

    private static final JsonFactory JSON = new JsonFactory();
    private static final Pattern QUOTED = Pattern.compile("\"([^\"]+)\"");

    private record Found(String value, String section, TextPosition position) {
    }

    private PolicyPositions() {
    }

    /**
     * The first place of {@code subject} (in {@code section} when given): the string itself, or a destination that
     * is it with ports ({@code tag:x:22}). Without a subject, the last value quoted in {@code message} that stands in
     * the text, then the one before it (messages name the wrong value last: {@code tagOwners["tag:a"]: group not
     * found: "group:x"}).
     */
    static Optional<TextPosition> find(String text, String section, String subject, String message) {
        List<Found> strings = strings(text);
        if (subject != null) {
            Optional<TextPosition> exact = first(strings, section, subject::equals);
            return exact.isPresent() ? exact : first(strings, section, s -> s.startsWith(subject + ":"));
        }
        List<String> quoted = new ArrayList<>();
        for (Matcher m = QUOTED.matcher(message); m.find(); ) {
            quoted.add(m.group(1));
        }
        for (String value : quoted.reversed()) {
            Optional<TextPosition> found = first(strings, null, value::equals);
            if (found.isPresent()) {
                return found;
            }
        }
        return Optional.empty();
    }

    private static Optional<TextPosition> first(List<Found> strings, String section, Predicate<String> matches) {
        return strings.stream()
                .filter(s -> section == null || section.equals(s.section()))
                .filter(s -> matches.test(s.value().strip()))
                .map(Found::position)
                .findFirst();
    }

    private static List<Found> strings(String text) {
        List<Found> strings = new ArrayList<>();
        try (JsonParser parser = JSON.createParser(ObjectReadContext.empty(), HuJson.standardize(text))) {
            String section = null;
            int depth = 0;
            for (JsonToken token = parser.nextToken(); token != null; token = parser.nextToken()) {
                switch (token) {
                    case START_OBJECT, START_ARRAY -> depth++;
                    case END_OBJECT, END_ARRAY -> depth--;
                    case PROPERTY_NAME -> {
                        if (depth == 1) {
                            section = parser.currentName();
                        }
                        strings.add(new Found(parser.currentName(), section, position(parser)));
                    }
                    case VALUE_STRING -> strings.add(new Found(parser.getString(), section, position(parser)));
                    default -> {
                    }
                }
            }
        } catch (JacksonException e) {
            // a text that does not parse has its syntax error's place already; the strings before it are kept
        }
        return strings;
    }

    private static TextPosition position(JsonParser parser) {
        var at = parser.currentTokenLocation();
        return new TextPosition(Math.max(1, at.getLineNr()), Math.max(1, at.getColumnNr()));
    }
}
