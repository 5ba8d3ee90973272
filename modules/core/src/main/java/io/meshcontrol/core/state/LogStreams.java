package io.meshcontrol.core.state;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.model.AuditEntry;
import io.meshcontrol.core.model.DerpSettings;
import io.meshcontrol.core.model.LogStream;
import io.meshcontrol.core.store.AuditStore;
import io.meshcontrol.core.store.LogStreamStore;
import java.net.URI;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Jdbi;

/**
 * Log streaming of the audit log (the vendor's {@code configuration} log type) to one outside log service. Delivery
 * follows a cursor over the audit log (the id of the last entry the destination took), kept with the configuration:
 * what is after it is what remains to send, so a restart resumes where delivery stopped and nothing needs an outbox.
 * Network flow logs are not collected, so the {@code network} log type does not exist here (404).
 */
public final class LogStreams {

    public static final String WRITE_SCOPE = "log_streaming";
    public static final String READ_SCOPE = "log_streaming:read";
    /** The log type streamed: the audit log. */
    public static final String CONFIGURATION = "configuration";
    public static final List<String> DESTINATIONS = List.of("http", "splunk", "elastic", "datadog", "axiom", "loki");
    /** The vendor's destinations this server refuses by name: object storage, and the two it has no body shape for. */
    public static final List<String> REFUSED_DESTINATIONS = List.of("s3", "gcs", "panther", "cribl");
    private static final List<String> COMPRESSION = List.of("none", "gzip", "zstd");

    /** What the sender delivers next: the configuration it goes to and the entries, oldest first. */
    public record Batch(LogStream stream, List<AuditEntry> entries) {

        public Batch {
            entries = List.copyOf(entries);
        }

        public long lastId() {
            return entries.getLast().id();
        }
    }

    private final Jdbi jdbi;
    private final Writer writer;
    private final LogStreamStore store;
    private final AuditStore audit;
    private final Clock clock;

    LogStreams(Jdbi jdbi, Writer writer, LogStreamStore store, AuditStore audit, Clock clock) {
        this.jdbi = jdbi;
        this.writer = writer;
        this.store = store;
        this.audit = audit;
        this.clock = clock;
    }

    public LogStream get(Caller caller, String logType) {
        caller.require(READ_SCOPE);
        requireType(logType);
        return jdbi.withHandle(h -> store.get(h, logType)).orElseThrow(() -> unconfigured(logType));
    }

    public LogStream.Status status(Caller caller, String logType) {
        caller.require(READ_SCOPE);
        requireType(logType);
        return jdbi.withHandle(h -> store.status(h, logType)).orElseThrow(() -> unconfigured(logType));
    }

    /**
     * Creates or replaces the stream. A new stream starts with the audit entry that records its creation; a replaced
     * one goes on from where its delivery stands (the entries not yet delivered go to the new destination).
     */
    public LogStream set(Caller caller, LogStream wanted) {
        caller.require(WRITE_SCOPE);
        requireType(wanted.logType());
        String type = wanted.destinationType();
        if (type != null && REFUSED_DESTINATIONS.contains(type)) {
            throw MeshException.invalid("log stream destination \"" + type + "\" is not supported by this server"
                    + (type.equals("s3") || type.equals("gcs") ? " (object storage)" : "") + "; supported: "
                    + String.join(", ", DESTINATIONS));
        }
        if (type == null || !DESTINATIONS.contains(type)) {
            throw MeshException.invalid("unknown log stream destinationType \"" + type + "\"; expected one of "
                    + String.join(", ", DESTINATIONS));
        }
        requireUrl(wanted.url());
        String compression = wanted.compressionFormat() == null || wanted.compressionFormat().isEmpty() ? ""
                : wanted.compressionFormat();
        if (!compression.isEmpty() && !COMPRESSION.contains(compression)) {
            throw MeshException.invalid("unknown compressionFormat \"" + compression + "\"; expected none, gzip or zstd");
        }
        if (wanted.uploadPeriodMinutes() < 0) {
            throw MeshException.invalid("uploadPeriodMinutes must not be negative");
        }
        return writer.change(caller, WRITE_SCOPE, (h, now) -> {
            LogStream stream = new LogStream(wanted.logType(), type, wanted.url(), text(wanted.user()),
                    text(wanted.token()), wanted.uploadPeriodMinutes(), compression, now);
            Optional<LogStream> existing = store.get(h, stream.logType());
            AuditEntry entry = audit.append(h, caller.audited(now, existing.isEmpty() ? "logstream.create"
                    : "logstream.update", stream.logType(), AuditDetails.of()
                    .put("destinationType", type)
                    .put("url", DerpSettings.redactedUrl(stream.url()))
                    .change("destination", existing.map(LogStreams::shown).orElse(null), shown(stream)).map()));
            store.put(h, stream, entry.id() - 1);
            return stream;
        });
    }

    public void delete(Caller caller, String logType) {
        caller.require(WRITE_SCOPE);
        requireType(logType);
        writer.write(caller, WRITE_SCOPE, (h, now) -> {
            LogStream existing = store.get(h, logType).orElseThrow(() -> unconfigured(logType));
            store.delete(h, logType);
            audit.append(h, caller.audited(now, "logstream.delete", logType, AuditDetails.of()
                    .put("destination", shown(existing)).map()));
        });
    }

    /** The next entries to deliver, at most {@code limit}; empty when there is no stream or nothing waits. */
    public Optional<Batch> pending(int limit) {
        return jdbi.withHandle(h -> store.get(h, CONFIGURATION).flatMap(stream -> {
            long cursor = store.status(h, CONFIGURATION).orElseThrow().deliveredTo();
            List<AuditEntry> entries = audit.after(h, cursor, limit);
            return entries.isEmpty() ? Optional.empty() : Optional.of(new Batch(stream, entries));
        }));
    }

    /** The destination took {@code batch} ({@code bytes} long): the cursor moves past it. */
    public void delivered(Batch batch, long bytes) {
        jdbi.useTransaction(h -> store.delivered(h, batch.stream().logType(), batch.stream().updated(),
                batch.lastId(), batch.entries().size(), bytes, clock.instant()));
    }

    /** A delivery failed; the cursor stays, so the same entries go again. */
    public void failed(Batch batch, String error) {
        jdbi.useTransaction(h -> store.failed(h, batch.stream().logType(), error));
    }

    private static String shown(LogStream stream) {
        return stream.destinationType() + " " + DerpSettings.redactedUrl(stream.url());
    }

    private static void requireType(String logType) {
        if (!CONFIGURATION.equals(logType)) {
            throw MeshException.notFound("network".equals(logType)
                    ? "network flow logs are not collected by this server, so they cannot be streamed"
                    : "unknown log type \"" + logType + "\"; this server streams \"configuration\" (the audit log)");
        }
    }

    private static void requireUrl(String url) {
        URI uri;
        try {
            uri = url == null ? null : new URI(url);
        } catch (java.net.URISyntaxException e) {
            uri = null;
        }
        if (uri == null || uri.getHost() == null
                || !("https".equalsIgnoreCase(uri.getScheme()) || "http".equalsIgnoreCase(uri.getScheme()))) {
            throw MeshException.invalid("a log stream needs \"url\": the http or https address of the destination");
        }
    }

    private static MeshException unconfigured(String logType) {
        return MeshException.notFound("no log stream is configured for " + logType + " logs");
    }

    private static String text(String value) {
        return value == null ? "" : value;
    }
}
