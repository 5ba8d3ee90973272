package io.meshcontrol.server.http;

import io.meshcontrol.core.MeshException;
import java.time.Duration;
import java.time.temporal.Temporal;
import java.util.Collection;
import java.util.List;
import tools.jackson.core.JacksonException;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.core.exc.InputCoercionException;
import tools.jackson.core.exc.StreamReadException;
import tools.jackson.core.exc.UnexpectedEndOfInputException;
import tools.jackson.databind.exc.InvalidFormatException;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.exc.UnrecognizedPropertyException;

/**
 * Says what is wrong with a request body that Jackson could not read, and where (field, line, column), in the words
 * of JSON: Jackson's own messages name Java classes and tokens, which are no business of an API client.
 */
final class JsonBodyErrors {

    /** Values quoted in a message are cut to this length: the body is the client's, and may be large. */
    private static final int MAX_QUOTED = 40;

    private JsonBodyErrors() {
    }

    static MeshException invalid(JacksonException e) {
        return MeshException.invalid(message(e) + where(e.getLocation()));
    }

    private static String message(JacksonException e) {
        String field = field(e.getPath());
        return switch (e) {
            case UnrecognizedPropertyException unknown -> "unknown field \"" + field + "\" in the request body";
            case InputCoercionException range -> field.isEmpty()
                    ? "the request body has a number out of range"
                    : "field \"" + field + "\" is a number out of range";
            case StreamReadException syntax -> "the request body is not valid JSON" + syntaxProblem(syntax);
            case InvalidFormatException format -> subject(field) + " must be " + expected(format.getTargetType())
                    + ", not " + quoted(format.getValue());
            case MismatchedInputException mismatch -> subject(field) + " must be " + expected(mismatch.getTargetType());
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

    /** A JSON type for a Java one: what the client must send. */
    static String expected(Class<?> type) {
        if (type == null) {
            return "of another type";
        }
        if (type == String.class || type == Character.class || type == char.class) {
            return "a string";
        }
        if (type == Boolean.class || type == boolean.class) {
            return "true or false";
        }
        if (Number.class.isAssignableFrom(type) || (type.isPrimitive() && type != void.class)) {
            return "a number";
        }
        if (type.isArray() || Collection.class.isAssignableFrom(type)) {
            return "an array";
        }
        if (type.isEnum()) {
            return "one of the documented values";
        }
        if (Temporal.class.isAssignableFrom(type)) {
            return "a time such as \"2026-01-31T12:00:00Z\"";
        }
        if (type == Duration.class) {
            return "a duration such as \"24h\"";
        }
        return "an object";
    }

    private static String quoted(Object value) {
        String text = String.valueOf(value);
        return "\"" + (text.length() > MAX_QUOTED ? text.substring(0, MAX_QUOTED) + "..." : text) + "\"";
    }

    private static String where(TokenStreamLocation location) {
        if (location == null || location.getLineNr() <= 0) {
            return "";
        }
        return " (line " + location.getLineNr() + ", column " + location.getColumnNr() + ")";
    }
}
