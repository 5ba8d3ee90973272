package io.meshcontrol.server.v2;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.model.LogStream;
import io.meshcontrol.core.state.LogStreams;
import io.meshcontrol.server.http.ApiRequest;
import io.meshcontrol.server.http.Reply;
import java.util.Map;

/**
 * Log streaming ({@code mesh_logstream_configuration}): the {@code configuration} log type streams the audit log to
 * one destination; {@code network} is refused with 404, since network flow logs are not collected here, and reading
 * them answers an empty list.
 */
final class LogStreamResource {

    /** The vendor's scope for reading network flow logs. */
    static final String NETWORK_LOGS_READ_SCOPE = "logs:network:read";

    private final LogStreams streams;

    LogStreamResource(LogStreams streams) {
        this.streams = streams;
    }

    /** Why {@code GET /logging/network} has nothing to answer (docs/events.md). */
    static final String NO_FLOW_LOGS = "network flow logs are not collected by this server: Tailscale clients upload "
            + "them only to the vendor's log service (their flow logger has no setting for another server), so "
            + "there are none to list";

    void register(V2Routes v2) {
        v2.tailnet("GET", "/logging/{logType}/stream", request -> Reply.ok(view(
                streams.get(request.caller(), request.pathParam("logType")))))
                .doc(LogStreams.READ_SCOPE, "The stream of configuration (audit) logs as it was PUT, without the "
                        + "token; 404 when none is configured and for network")
                .answers(Answers.LogStream.class);
        v2.tailnet("PUT", "/logging/{logType}/stream", request -> Reply.ok(view(streams.set(request.caller(),
                stream(request)))))
                .doc(LogStreams.WRITE_SCOPE, "Partial: streams the audit log to http, splunk, elastic, datadog, axiom "
                        + "or loki; s3, gcs, panther and cribl are refused with 400, network with 404")
                .takes(Bodies.LogStream.class).answers(Answers.LogStream.class);
        v2.tailnet("DELETE", "/logging/{logType}/stream", request -> {
            streams.delete(request.caller(), request.pathParam("logType"));
            return Reply.ok(Answers.Empty.INSTANCE);
        }).doc(LogStreams.WRITE_SCOPE, "Stops the stream").answers(Answers.Empty.class);
        v2.tailnet("GET", "/logging/{logType}/stream/status", request -> Reply.ok(status(
                streams.status(request.caller(), request.pathParam("logType")))))
                .doc(LogStreams.READ_SCOPE, "Delivery counters: lastActivity, lastError, numEntriesSent, "
                        + "numBytesSent, numTotalRequests, numFailedRequests (rates are 0)")
                .answers(Answers.LogStreamStatus.class);
        v2.tailnet("GET", "/logging/network", request -> {
            request.caller().require(NETWORK_LOGS_READ_SCOPE);
            request.queryTime("start");
            request.queryTime("end");
            // Not an empty list, which would say that nothing happened: there is nothing to list at all.
            return new Reply(501, new Answers.Error(NO_FLOW_LOGS, null), Map.of());
        }).doc(NETWORK_LOGS_READ_SCOPE, "Unsupported: 501, " + NO_FLOW_LOGS).query("start", "end").refuses(501);
    }

    private static LogStream stream(ApiRequest request) {
        Bodies.LogStream body = request.requiredBody(Bodies.LogStream.class);
        return new LogStream(request.pathParam("logType"), body.destinationType(), body.url(), body.user(),
                body.token(), body.uploadPeriodMinutes() == null ? 0 : body.uploadPeriodMinutes(),
                body.compressionFormat(), null);
    }

    /** What GET shows: every field as it was PUT, but the token. */
    private static Answers.LogStream view(LogStream stream) {
        return new Answers.LogStream(stream.logType(), stream.destinationType(), stream.url(), stream.user(),
                stream.uploadPeriodMinutes(), stream.compressionFormat());
    }

    private static Answers.LogStreamStatus status(LogStream.Status status) {
        return new Answers.LogStreamStatus(status.lastActivity() == null ? null : status.lastActivity().toString(),
                status.lastError(), 0, status.bytesSent(), status.entriesSent(), 0, status.requests(),
                status.failedRequests(), 0, 0, 0, 0);
    }
}
