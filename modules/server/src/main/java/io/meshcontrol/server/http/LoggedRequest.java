package io.meshcontrol.server.http;

import java.util.Optional;

/**
 * The request a thread is serving, as the log names it: a structured log line ({@code log.format: json}) carries these
 * fields beside its message, so a pipeline can find every line of one request, or the line of an error id a client
 * was given. Set by the request pipeline's error stage around each request; log handlers format on the thread that
 * logs, so they see it.
 *
 * @param method the HTTP method
 * @param route the route template (e.g. {@code /api/v1/node/{id}}), or the path when no route matched
 * @param path the request's path
 * @param client who asked: the ts2021 connection's machine, or the source address
 * @param errorId the id of an unexpected failure being logged; null on every other line
 */
public record LoggedRequest(String method, String route, String path, String client, String errorId) {

    private static final ThreadLocal<LoggedRequest> CURRENT = new ThreadLocal<>();

    /** The request the calling thread is serving, if any. */
    public static Optional<LoggedRequest> current() {
        return Optional.ofNullable(CURRENT.get());
    }

    /** Makes {@code request} the calling thread's until the returned scope is closed, which restores the one before. */
    public static Scope enter(LoggedRequest request) {
        LoggedRequest outer = CURRENT.get();
        CURRENT.set(request);
        return () -> {
            if (outer == null) {
                CURRENT.remove();
            } else {
                CURRENT.set(outer);
            }
        };
    }

    /** The same request while the failure with this id is logged. */
    public LoggedRequest withErrorId(String id) {
        return new LoggedRequest(method, route, path, client, id);
    }

    /** The span of code that serves one request. */
    @FunctionalInterface
    public interface Scope extends AutoCloseable {
        @Override
        void close();
    }
}
