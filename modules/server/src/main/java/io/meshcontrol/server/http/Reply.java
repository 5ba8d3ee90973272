package io.meshcontrol.server.http;

import java.util.Map;

/** What a handler answers: a status, a body to write as JSON (or null), extra headers. */
public record Reply(int status, Object body, Map<String, String> headers) {

    public Reply {
        headers = Map.copyOf(headers);
    }

    public static Reply ok(Object body) {
        return new Reply(200, body, Map.of());
    }

    public static Reply created(Object body) {
        return new Reply(201, body, Map.of());
    }

    /** For a handler that wrote its answer itself as it went (server-sent events): nothing more is written. */
    public static Reply streamed() {
        return STREAMED;
    }

    private static final Reply STREAMED = new Reply(200, null, Map.of());

    public static Reply noContent() {
        return new Reply(204, null, Map.of());
    }
}
