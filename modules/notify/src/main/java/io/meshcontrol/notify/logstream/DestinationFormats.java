package io.meshcontrol.notify.logstream;

import io.meshcontrol.core.model.AuditEntry;
import io.meshcontrol.core.model.LogStream;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.json.JsonMapper;

/**
 * A batch of audit entries in the body and with the authentication each destination ingests (docs/events.md, "Audit
 * log and log streaming"):
 * <ul>
 *   <li>{@code http}: a JSON array of entries; {@code Authorization: Bearer <token>} when a token is set;</li>
 *   <li>{@code splunk}: HTTP Event Collector events, one JSON object a line; {@code Authorization: Splunk <token>};</li>
 *   <li>{@code elastic}: the Bulk API's NDJSON ({@code create} action, then the document with {@code @timestamp});
 *       Basic authentication with user and token;</li>
 *   <li>{@code datadog}: the Logs API's JSON array; {@code DD-API-KEY: <token>};</li>
 *   <li>{@code axiom}: the ingest API's JSON array of events with {@code _time}; {@code Authorization: Bearer};</li>
 *   <li>{@code loki}: the push API's {@code {"streams":[...]}} with nanosecond timestamps; Basic authentication
 *       with user and token when a token is set.</li>
 * </ul>
 */
final class DestinationFormats {

    static final String SOURCE = "meshcontrol";
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private DestinationFormats() {
    }

    static LogRequest of(LogStream stream, List<AuditEntry> entries) {
        Map<String, String> headers = new LinkedHashMap<>();
        String token = stream.token();
        byte[] body = switch (stream.destinationType()) {
            case "http" -> {
                bearer(headers, token);
                yield json(headers, entries.stream().map(DestinationFormats::entry).toList());
            }
            case "splunk" -> {
                headers.put("Authorization", "Splunk " + token);
                StringBuilder lines = new StringBuilder();
                for (AuditEntry e : entries) {
                    Map<String, Object> event = new LinkedHashMap<>();
                    event.put("time", e.at().toEpochMilli() / 1000.0);
                    event.put("source", SOURCE);
                    event.put("sourcetype", "_json");
                    event.put("event", entry(e));
                    lines.append(JSON.writeValueAsString(event)).append('\n');
                }
                headers.put("Content-Type", "application/json");
                yield lines.toString().getBytes(StandardCharsets.UTF_8);
            }
            case "elastic" -> {
                basic(headers, stream.user(), token);
                StringBuilder lines = new StringBuilder();
                for (AuditEntry e : entries) {
                    Map<String, Object> document = new LinkedHashMap<>();
                    document.put("@timestamp", e.at().toString());
                    document.putAll(entry(e));
                    lines.append("{\"create\":{}}\n").append(JSON.writeValueAsString(document)).append('\n');
                }
                headers.put("Content-Type", "application/x-ndjson");
                yield lines.toString().getBytes(StandardCharsets.UTF_8);
            }
            case "datadog" -> {
                headers.put("DD-API-KEY", token);
                yield json(headers, entries.stream().map(e -> {
                    Map<String, Object> log = new LinkedHashMap<>();
                    log.put("ddsource", SOURCE);
                    log.put("service", SOURCE);
                    log.put("ddtags", "log_type:configuration");
                    log.put("message", e.actor() + " " + e.action() + " " + e.target());
                    log.put("timestamp", e.at().toEpochMilli());
                    log.put("audit", entry(e));
                    return log;
                }).toList());
            }
            case "axiom" -> {
                bearer(headers, token);
                yield json(headers, entries.stream().map(e -> {
                    Map<String, Object> event = new LinkedHashMap<>();
                    event.put("_time", e.at().toString());
                    event.putAll(entry(e));
                    return event;
                }).toList());
            }
            case "loki" -> {
                if (!token.isEmpty()) {
                    basic(headers, stream.user(), token);
                }
                List<List<String>> values = entries.stream().map(e -> List.of(
                        Long.toString(e.at().getEpochSecond() * 1_000_000_000L + e.at().getNano()),
                        JSON.writeValueAsString(entry(e)))).toList();
                yield json(headers, Map.of("streams", List.of(Map.of(
                        "stream", Map.of("source", SOURCE, "log_type", "configuration"),
                        "values", values))));
            }
            default -> throw new IllegalArgumentException("no body shape for " + stream.destinationType());
        };
        return new LogRequest(headers, body);
    }

    /** An audit entry as every destination carries it. */
    static Map<String, Object> entry(AuditEntry e) {
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("id", e.id());
        entry.put("time", e.at().toString());
        entry.put("actor", e.actor());
        entry.put("source", e.source());
        entry.put("action", e.action());
        entry.put("target", e.target());
        entry.put("details", e.details());
        return entry;
    }

    private static byte[] json(Map<String, String> headers, Object value) {
        headers.put("Content-Type", "application/json");
        return JSON.writeValueAsBytes(value);
    }

    private static void bearer(Map<String, String> headers, String token) {
        if (!token.isEmpty()) {
            headers.put("Authorization", "Bearer " + token);
        }
    }

    private static void basic(Map<String, String> headers, String user, String token) {
        headers.put("Authorization", "Basic " + Base64.getEncoder().encodeToString(
                (user + ":" + token).getBytes(StandardCharsets.UTF_8)));
    }
}
