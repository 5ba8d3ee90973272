package io.meshcontrol.server.http;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.auth.Caller;
import io.undertow.server.HttpServerExchange;
import io.undertow.server.RequestTooBigException;
import io.undertow.util.PathTemplateMatch;
import java.io.IOException;
import java.io.InputStream;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.Set;
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

    /** The JSON body as {@code type}; an empty body when {@code type} allows it yields null. */
    public <T> T body(Class<T> type) {
        byte[] bytes = rawBody();
        if (bytes.length == 0) {
            return null;
        }
        try {
            return json.readValue(bytes, type);
        } catch (JacksonException e) {
            throw JsonBodyErrors.invalid(e);
        }
    }

    /** The body as sent, for operations whose body is not JSON (a HuJSON policy); empty when there is none. */
    public byte[] rawBody() {
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
        return bytes;
    }

    /** Every value of a query parameter, in order; empty when it is absent. */
    public List<String> queryAll(String name) {
        Deque<String> values = exchange.getQueryParameters().get(name);
        return values == null ? List.of() : List.copyOf(values);
    }

    /** The names of the query parameters sent (the router files path parameters among them: those are not). */
    public Set<String> queryNames() {
        Set<String> names = new java.util.HashSet<>(exchange.getQueryParameters().keySet());
        PathTemplateMatch match = exchange.getAttachment(PathTemplateMatch.ATTACHMENT_KEY);
        if (match != null) {
            names.removeAll(match.getParameters().keySet());
        }
        return Set.copyOf(names);
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
