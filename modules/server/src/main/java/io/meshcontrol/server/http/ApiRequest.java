package io.meshcontrol.server.http;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.auth.Caller;
import io.undertow.server.HttpServerExchange;
import io.undertow.server.RequestTooBigException;
import io.undertow.util.PathTemplateMatch;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/** A request as handlers see it: caller, path and query parameters, a JSON body. */
public final class ApiRequest {

    /** A time's offset whose "+" a query string turned into a space. */
    private static final Pattern UNESCAPED_PLUS_OFFSET = Pattern.compile(" ([0-9]{2}:[0-9]{2})$");

    /** How ids are written in paths: one spelling per id (see pathId). */
    private static final Pattern CANONICAL_ID = Pattern.compile("0|[1-9][0-9]{0,18}");

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

    /** The address the request came from (the peer of the connection), as the audit log records it. */
    public String source() {
        return sourceOf(exchange);
    }

    /**
     * The exchange, for the public routes that authenticate by themselves: console sign-in resolves a credential
     * and reads the session cookie as the {@link SessionAuthentication} of {@code /api/v1} does.
     */
    public HttpServerExchange exchange() {
        return exchange;
    }

    static String sourceOf(HttpServerExchange exchange) {
        InetSocketAddress peer = exchange.getSourceAddress();
        return peer == null || peer.getAddress() == null ? "" : peer.getAddress().getHostAddress();
    }

    public String pathParam(String name) {
        PathTemplateMatch match = exchange.getAttachment(PathTemplateMatch.ATTACHMENT_KEY);
        String value = match == null ? null : match.getParameters().get(name);
        if (value == null) {
            throw new IllegalStateException("route has no path parameter " + name);
        }
        return value;
    }

    /**
     * An id in the path, in its one canonical form: ASCII digits with no sign and no leading zero. Long.parseLong
     * alone would also take {@code +1}, {@code 01} and non-ASCII digits ({@code ١}, {@code １}), so that many
     * spellings named one resource (docs/api.md, "Identifiers").
     */
    public long pathId(String name) {
        String value = pathParam(name);
        if (CANONICAL_ID.matcher(value).matches()) {
            try {
                return Long.parseLong(value);
            } catch (NumberFormatException e) {
                // beyond the largest id: refused below like any other malformed one
            }
        }
        throw MeshException.invalid("path parameter " + name + " must be a decimal number written with the digits"
                + " 0-9 only, without sign or leading zeros, got \"" + value + "\"");
    }


    public Optional<String> query(String name) {
        Deque<String> values = exchange.getQueryParameters().get(name);
        return values == null || values.isEmpty() ? Optional.empty() : Optional.of(values.getFirst());
    }

    /**
     * A query parameter that is an RFC 3339 time, with any offset ({@code Z}, {@code +02:00}, {@code -05:00}). A
     * {@code +} typed into a URL unescaped reads as a space in a query string; before an offset it can only have been
     * the sign, so it is read back as one.
     */
    public Optional<Instant> queryTime(String name) {
        return query(name).map(value -> {
            String text = UNESCAPED_PLUS_OFFSET.matcher(value).replaceFirst("+$1");
            try {
                return OffsetDateTime.parse(text).toInstant();
            } catch (DateTimeParseException e) {
                throw MeshException.invalid(name + " must be an RFC 3339 time such as 2026-01-01T00:00:00Z or "
                        + "2026-01-01T02:00:00+02:00, got \"" + value + "\"");
            }
        });
    }

    public Optional<String> header(String name) {
        return Optional.ofNullable(exchange.getRequestHeaders().getFirst(name));
    }

    /** The JSON body as {@code type}; an empty body yields null, the body {@code null} is refused. */
    public <T> T body(Class<T> type) {
        byte[] bytes = rawBody();
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

    /**
     * The body as an HTML form ({@code application/x-www-form-urlencoded}, what OAuth token requests send): each
     * field's first value. An empty body is an empty form.
     */
    public Map<String, String> form() {
        Map<String, String> fields = new LinkedHashMap<>();
        String text = new String(rawBody(), StandardCharsets.UTF_8);
        for (String pair : text.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int equals = pair.indexOf('=');
            try {
                String name = URLDecoder.decode(equals < 0 ? pair : pair.substring(0, equals), StandardCharsets.UTF_8);
                String value = equals < 0 ? "" : URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8);
                fields.putIfAbsent(name, value);
            } catch (IllegalArgumentException e) {
                throw MeshException.invalid("the form body is not URL-encoded: " + e.getMessage());
            }
        }
        return fields;
    }

    /** The body as sent, for operations whose body is not JSON (a HuJSON policy); empty when there is none. */
    public byte[] rawBody() {
        if (exchange.getRequestContentLength() > Routes.MAX_BODY_BYTES) {
            throw tooLarge();
        }
        InputStream in = exchange.getInputStream();
        byte[] bytes;
        try {
            // A chunked body has no length to refuse up front: one byte past the bound says it is too large, before
            // the listener's own limit (further on, see Routes.LISTENER_ENTITY_LIMIT) would cut the connection.
            bytes = in.readNBytes((int) Routes.MAX_BODY_BYTES + 1);
        } catch (RequestTooBigException e) {
            throw tooLarge();
        } catch (IOException e) {
            throw MeshException.invalid("could not read the request body: " + e.getMessage());
        }
        if (bytes.length > Routes.MAX_BODY_BYTES) {
            throw tooLarge();
        }
        try {
            in.close();
        } catch (IOException e) {
            throw MeshException.invalid("could not read the request body: " + e.getMessage());
        }
        return bytes;
    }

    /**
     * The refusal of a body over the bound, whose rest is left unread: the connection closes after the answer
     * rather than reading megabytes nobody wants (closing the stream would read them).
     */
    private BodyTooLargeException tooLarge() {
        exchange.setPersistent(false);
        return new BodyTooLargeException();
    }

    /** Every value of a query parameter, in order; empty when it is absent. */
    public List<String> queryAll(String name) {
        Deque<String> values = exchange.getQueryParameters().get(name);
        return values == null ? List.of() : List.copyOf(values);
    }

    /** The names of the query parameters sent (the router files path parameters among them: those are not). */
    public Set<String> queryNames() {
        Set<String> names = new HashSet<>(exchange.getQueryParameters().keySet());
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
