package io.meshcontrol.server.http;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.auth.Caller;
import io.undertow.server.HttpServerExchange;
import io.undertow.server.RequestTooBigException;
import io.undertow.util.PathTemplateMatch;
import java.io.IOException;
import java.io.InputStream;
import java.util.Deque;
import java.util.Optional;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/** A request as handlers see it: caller, path and query parameters, a JSON body. */
public final class ApiRequest {

    private final HttpServerExchange exchange;
    private final Caller caller;
    private final JsonMapper json;

    ApiRequest(HttpServerExchange exchange, Caller caller, JsonMapper json) {
        this.exchange = exchange;
        this.caller = caller;
        this.json = json;
    }

    /** The authenticated caller; only routes marked unauthenticated see none. */
    public Caller caller() {
        if (caller == null) {
            throw MeshException.unauthenticated("this request needs a credential");
        }
        return caller;
    }

    public String pathParam(String name) {
        PathTemplateMatch match = exchange.getAttachment(PathTemplateMatch.ATTACHMENT_KEY);
        String value = match == null ? null : match.getParameters().get(name);
        if (value == null) {
            throw new IllegalStateException("route has no path parameter " + name);
        }
        return value;
    }

    public long pathId(String name) {
        String value = pathParam(name);
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw MeshException.invalid("path parameter " + name + " must be a number, got \"" + value + "\"");
        }
    }

    public Optional<String> query(String name) {
        Deque<String> values = exchange.getQueryParameters().get(name);
        return values == null || values.isEmpty() ? Optional.empty() : Optional.of(values.getFirst());
    }

    public Optional<String> header(String name) {
        return Optional.ofNullable(exchange.getRequestHeaders().getFirst(name));
    }

    /** The JSON body as {@code type}; an empty body yields null, the body {@code null} is refused. */
    public <T> T body(Class<T> type) {
        byte[] bytes;
        try (InputStream in = exchange.getInputStream()) {
            bytes = in.readNBytes((int) Routes.MAX_BODY_BYTES + 1);
        } catch (RequestTooBigException e) {
            throw new BodyTooLargeException();
        } catch (IOException e) {
            throw MeshException.invalid("could not read the request body: " + e.getMessage());
        }
        if (bytes.length > Routes.MAX_BODY_BYTES) {
            throw new BodyTooLargeException();
        }
        if (bytes.length == 0) {
            return null;
        }
        T value;
        try {
            value = json.readValue(bytes, type);
        } catch (JacksonException e) {
            throw JsonBodyErrors.invalid(e);
        }
        if (value == null) {
            // the body "null": a JSON value, but not the object the operation reads (an absent body is empty)
            throw MeshException.invalid("the request body must be an object, not null");
        }
        return value;
    }

    /** The body, which this operation requires. */
    public <T> T requiredBody(Class<T> type) {
        T value = body(type);
        if (value == null) {
            throw MeshException.invalid("this operation needs a JSON request body");
        }
        return value;
    }

    static final class BodyTooLargeException extends RuntimeException {
        BodyTooLargeException() {
            super("request body larger than " + Routes.MAX_BODY_BYTES + " bytes");
        }
    }
}
