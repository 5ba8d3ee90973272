package io.meshcontrol.server.http;

import io.meshcontrol.core.MeshException;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.math.BigInteger;
import java.time.Duration;
import java.time.temporal.Temporal;
import java.util.Collection;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonToken;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.core.exc.InputCoercionException;
import tools.jackson.core.exc.StreamReadException;
import tools.jackson.core.exc.UnexpectedEndOfInputException;
import tools.jackson.databind.exc.InvalidFormatException;
import tools.jackson.databind.exc.InvalidNullException;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.exc.UnrecognizedPropertyException;

/**
 * Says what is wrong with a request body that Jackson could not read, and where (field, line, column), in the words
 * of JSON: Jackson's own messages name Java classes and tokens, which are no business of an API client. The field is
 * named by its path as a client writes it ({@code relays[0].regionId}); the expected value by its JSON type ("an
 * integer", "a boolean", "a list of strings").
 */
final class JsonBodyErrors {

    /** Values quoted in a message are cut to this length: the body is the client's, and may be large. */
    private static final int MAX_QUOTED = 40;
    /** How the parser names a repeated field (StreamReadFeature.STRICT_DUPLICATE_DETECTION). */
    private static final Pattern DUPLICATE = Pattern.compile("^Duplicate Object property \"(.*)\"", Pattern.DOTALL);

    private JsonBodyErrors() {
    }

    static MeshException invalid(JacksonException e) {
        return MeshException.invalid(message(e) + where(e.getLocation()));
    }

    private static String message(JacksonException e) {
        String field = field(e.getPath());
        return switch (e) {
            case UnrecognizedPropertyException unknown -> "unknown field \"" + field + "\" in the request body";
            case InputCoercionException range -> subject(field) + " must be " + range(range.getTargetType());
            case StreamReadException syntax when duplicate(syntax) != null ->
                    "field \"" + (field.isEmpty() ? "" : field + ".") + duplicate(syntax)
                            + "\" appears more than once in the request body";
            case StreamReadException syntax -> "the request body is not valid JSON" + syntaxProblem(syntax);
            case InvalidNullException nothing -> subject(field) + " must not be null";
            case MismatchedInputException trailing when trailing.getOriginalMessage() != null
                    && trailing.getOriginalMessage().startsWith("Trailing token") ->
                    "the request body must be one JSON value, with nothing after it";
            case MismatchedInputException mismatch -> subject(field) + " must be "
                    + expected(declaredType(e.getPath(), mismatch.getTargetType())) + sent(mismatch);
            default -> field.isEmpty()
                    ? "the request body does not fit this operation"
                    : "field \"" + field + "\" does not fit this operation";
        };
    }

    private static String subject(String field) {
        return field.isEmpty() ? "the request body" : "field \"" + field + "\"";
    }

    /** The path as a client writes it: {@code relays[0].host}. */
    private static String field(List<JacksonException.Reference> path) {
        StringBuilder text = new StringBuilder();
        for (JacksonException.Reference step : path) {
            if (step.getPropertyName() != null) {
                text.append(text.isEmpty() ? "" : ".").append(step.getPropertyName());
            } else if (step.getIndex() >= 0) {
                text.append('[').append(step.getIndex()).append(']');
            }
        }
        return text.toString();
    }

    private static String duplicate(StreamReadException e) {
        String parserMessage = e.getOriginalMessage();
        Matcher matcher = DUPLICATE.matcher(parserMessage == null ? "" : parserMessage);
        return matcher.find() ? matcher.group(1) : null;
    }

    /**
     * The type the field is declared with, generics included, when the last step of the path is a property of a
     * record (the API's request bodies are records): a {@code List<String>} says more than Jackson's target class.
     */
    private static Type declaredType(List<JacksonException.Reference> path, Class<?> target) {
        if (path.isEmpty()) {
            return target;
        }
        JacksonException.Reference last = path.getLast();
        if (last.getPropertyName() != null && last.from() instanceof Class<?> owner && owner.isRecord()) {
            for (RecordComponent component : owner.getRecordComponents()) {
                if (component.getName().equals(last.getPropertyName())) {
                    return component.getGenericType();
                }
            }
        }
        return target;
    }

    /** The JSON value a Java type is read from, in the API's words: what the client must send. */
    private static String expected(Type type) {
        if (type instanceof ParameterizedType generic && generic.getRawType() instanceof Class<?> raw
                && Collection.class.isAssignableFrom(raw) && generic.getActualTypeArguments().length == 1) {
            return "a list of " + plural(generic.getActualTypeArguments()[0]);
        }
        if (!(type instanceof Class<?> cls)) {
            return "of another type";
        }
        if (cls.isArray() || Collection.class.isAssignableFrom(cls)) {
            return "a list";
        }
        return switch (kind(cls)) {
            case "string" -> "a string";
            case "integer" -> "an integer";
            case "number" -> "a number";
            case "boolean" -> "a boolean (true or false)";
            case "enum" -> "one of the documented values";
            case "time" -> "a time such as \"2026-01-31T12:00:00Z\"";
            case "duration" -> "a duration such as \"24h\"";
            default -> "an object";
        };
    }

    private static String plural(Type element) {
        return element instanceof Class<?> cls ? switch (kind(cls)) {
            case "string", "time", "duration" -> "strings";
            case "integer" -> "integers";
            case "number" -> "numbers";
            case "boolean" -> "booleans";
            case "enum" -> "documented values";
            default -> "objects";
        } : "values";
    }

    private static String kind(Class<?> cls) {
        if (cls == String.class || cls == Character.class || cls == char.class) {
            return "string";
        }
        if (cls == Boolean.class || cls == boolean.class) {
            return "boolean";
        }
        if (cls == Integer.class || cls == int.class || cls == Long.class || cls == long.class || cls == Short.class
                || cls == short.class || cls == Byte.class || cls == byte.class || cls == BigInteger.class) {
            return "integer";
        }
        if (Number.class.isAssignableFrom(cls) || cls == double.class || cls == float.class) {
            return "number";
        }
        if (cls.isEnum()) {
            return "enum";
        }
        if (Temporal.class.isAssignableFrom(cls)) {
            return "time";
        }
        if (cls == Duration.class) {
            return "duration";
        }
        return "object";
    }

    /** What the client sent instead, as JSON calls it: the value itself when Jackson kept it, else its kind. */
    private static String sent(MismatchedInputException e) {
        if (e instanceof InvalidFormatException format && format.getValue() != null) {
            return ", not " + (format.getValue() instanceof String text ? quoted(text) : cut(format.getValue()));
        }
        JsonToken token = e.getCurrentToken();
        if (token == null) {
            return "";
        }
        return switch (token) {
            case VALUE_STRING -> ", not a string";
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> ", not a number";
            case VALUE_TRUE, VALUE_FALSE -> ", not a boolean";
            case START_ARRAY -> ", not a list";
            case START_OBJECT -> ", not an object";
            case VALUE_NULL -> ", not null";
            default -> "";
        };
    }

    private static String range(Class<?> target) {
        if (target == int.class || target == Integer.class) {
            return "an integer from " + Integer.MIN_VALUE + " to " + Integer.MAX_VALUE;
        }
        if (target == long.class || target == Long.class) {
            return "an integer from " + Long.MIN_VALUE + " to " + Long.MAX_VALUE;
        }
        return "a smaller number";
    }

    /** The body ended early, or what the parser wanted instead ("was expecting a colon ..."), or nothing. */
    private static String syntaxProblem(StreamReadException e) {
        String parserMessage = e.getOriginalMessage();
        if (e instanceof UnexpectedEndOfInputException
                || (parserMessage != null && parserMessage.startsWith("Unexpected end-of-input"))) {
            return ": it ends before it is complete";
        }
        if (parserMessage == null) {
            return "";
        }
        int at = parserMessage.indexOf("was expecting ");
        String wanted = at >= 0 ? parserMessage.substring(at + "was expecting ".length()) : "";
        wanted = wanted.lines().findFirst().orElse("").strip();
        return wanted.isEmpty() ? "" : ": expected " + wanted;
    }

    private static String quoted(String text) {
        return "\"" + cut(text) + "\"";
    }

    private static String cut(Object value) {
        String text = String.valueOf(value);
        return text.length() > MAX_QUOTED ? text.substring(0, MAX_QUOTED) + "..." : text;
    }

    private static String where(TokenStreamLocation location) {
        if (location == null || location.getLineNr() <= 0) {
            return "";
        }
        return " (line " + location.getLineNr() + ", column " + location.getColumnNr() + ")";
    }
}
