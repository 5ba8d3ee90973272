package io.meshcontrol.server.v1;

import io.meshcontrol.api.LogStreamRequest;
import io.meshcontrol.api.LogStreamStatusView;
import io.meshcontrol.api.LogStreamView;
import io.meshcontrol.core.model.LogStream;
import io.meshcontrol.core.state.LogStreams;
import io.meshcontrol.server.http.Reply;
import io.meshcontrol.server.http.Routes;

/**
 * {@code /api/v1/log-stream/{logType}}: the stream of the audit log ({@code configuration}) to one destination, its
 * delivery status; the same service as {@code /api/v2/.../logging/{logType}/stream} (docs/events.md).
 */
public final class LogStreamRoutes {

    private final LogStreams streams;

    public LogStreamRoutes(LogStreams streams) {
        this.streams = streams;
    }

    public void register(Routes routes) {
        routes.add("GET", "/api/v1/log-stream/{logType}", request ->
                Reply.ok(view(streams.get(request.caller(), request.pathParam("logType")))));
        routes.add("PUT", "/api/v1/log-stream/{logType}", request -> {
            LogStreamRequest body = request.requiredBody(LogStreamRequest.class);
            return Reply.ok(view(streams.set(request.caller(), new LogStream(request.pathParam("logType"),
                    body.destinationType(), body.url(), body.user(), body.token(),
                    body.uploadPeriodMinutes() == null ? 0 : body.uploadPeriodMinutes(), body.compressionFormat(),
                    null))));
        });
        routes.add("DELETE", "/api/v1/log-stream/{logType}", request -> {
            streams.delete(request.caller(), request.pathParam("logType"));
            return Reply.noContent();
        });
        routes.add("GET", "/api/v1/log-stream/{logType}/status", request -> {
            LogStream.Status s = streams.status(request.caller(), request.pathParam("logType"));
            return Reply.ok(new LogStreamStatusView(s.entriesSent(), s.bytesSent(), s.requests(), s.failedRequests(),
                    s.lastActivity(), s.lastError() == null ? "" : s.lastError()));
        });
    }

    private static LogStreamView view(LogStream s) {
        return new LogStreamView(s.logType(), s.destinationType(), s.url(), s.user(), s.uploadPeriodMinutes(),
                s.compressionFormat(), s.updated());
    }
}
