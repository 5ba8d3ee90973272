package io.meshcontrol.server.control;

import io.meshcontrol.core.address.EgressGuard;
import io.meshcontrol.core.state.FetchedDocuments;
import io.meshcontrol.core.state.Lease;
import io.meshcontrol.relay.map.MapUrlFetcher;
import java.io.IOException;
import java.io.InputStream;
import java.lang.System.Logger.Level;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code client_updates}: looks up the latest stable client release at {@code client_updates.url} (the vendor's
 * package index answers {@code {"TarballsVersion": "1.90.9", ...}} with {@code ?mode=json}) through the egress
 * guard, every {@code client_updates.interval}; map streams pass it on as each client's {@code ClientVersion}. The
 * release found is stored for the whole network ({@link FetchedDocuments}): one instance looks it up (the holder of
 * the singleton lease, on PostgreSQL), every instance uses the stored one, and a restart starts from it. A failed
 * lookup keeps the last release known and is only logged.
 */
public final class ClientReleases {

    private static final System.Logger LOG = System.getLogger(ClientReleases.class.getName());
    private static final Duration TIMEOUT = Duration.ofSeconds(15);
    /** The name the release is stored under. */
    static final String DOCUMENT = "client-release";
    private static final Duration CHECK_AT_MOST_EVERY = Duration.ofMinutes(1);
    private static final int MAX_BYTES = 1 << 20;
    private static final Pattern RELEASE = Pattern.compile("\\d{1,6}(\\.\\d{1,6}){1,3}");

    private final String url;
    private final EgressGuard guard;
    private final MapUrlFetcher.Resolver resolver;
    private final HttpClient http = HttpClient.newBuilder()
            .followRedirects(HttpClient.Redirect.NEVER)
            .connectTimeout(TIMEOUT)
            .build();
    private final JsonMapper json = JsonMapper.builder().build();

    public ClientReleases(String url, EgressGuard guard, MapUrlFetcher.Resolver resolver) {
        this.url = url;
        this.guard = guard;
        this.resolver = resolver;
    }

    /**
     * Gives {@code found} the stored release now and each one another instance stores; looks the release up on
     * {@code scheduler} while {@code lease} is held and the stored one (or this instance's last attempt) is
     * {@code interval} old, checked every minute at most and when the lease is taken, and gives {@code found} what it
     * finds.
     */
    public void schedule(ScheduledExecutorService scheduler, Duration interval, Lease lease,
            FetchedDocuments documents, Consumer<String> found) {
        documents.read(DOCUMENT).ifPresent(stored -> found.accept(stored.body()));
        documents.onFetchedElsewhere(DOCUMENT, (name, stored) -> stored.ifPresent(d -> found.accept(d.body())));
        Runnable lookUpIfDue = () -> {
            if (!lease.held() || !documents.due(DOCUMENT, interval)) {
                return;
            }
            try {
                String release = latest();
                documents.save(DOCUMENT, release);
                found.accept(release);
            } catch (LookupFailed e) {
                documents.failed(DOCUMENT);
                LOG.log(Level.WARNING, "client release lookup: " + e.getMessage());
            } catch (RuntimeException e) {
                documents.failed(DOCUMENT);
                LOG.log(Level.ERROR, "client release lookup failed", e);
            }
        };
        long tick = Math.min(interval.toMillis(), CHECK_AT_MOST_EVERY.toMillis());
        lease.whenTaken(scheduler, lookUpIfDue); // at once where the lease is held already
        scheduler.scheduleWithFixedDelay(lookUpIfDue, tick, tick, TimeUnit.MILLISECONDS);
    }

    /** A lookup that did not give a release; the message names the URL and why. */
    public static final class LookupFailed extends RuntimeException {
        LookupFailed(String message) {
            super(message);
        }
    }

    /**
     * The latest release ("1.90.9") as {@code url} states it now.
     *
     * @throws LookupFailed when the address is refused, the request fails, or the answer names no release
     */
    public String latest() {
        URI uri;
        try {
            uri = URI.create(url);
        } catch (IllegalArgumentException e) {
            throw new LookupFailed(url + " is not a URL");
        }
        String host = uri.getHost();
        if (host == null) {
            throw new LookupFailed(url + " has no host");
        }
        try {
            for (InetAddress address : resolver.resolve(host.startsWith("[") ? host.substring(1, host.length() - 1)
                    : host)) {
                Optional<String> refusal = guard.refusal(address);
                if (refusal.isPresent()) {
                    throw new LookupFailed(url + " points at " + refusal.get() + ", which the server does not fetch from");
                }
            }
        } catch (UnknownHostException e) {
            throw new LookupFailed("cannot look up " + url + ": unknown host " + host);
        }
        HttpResponse<InputStream> response;
        try {
            response = http.send(HttpRequest.newBuilder(uri).timeout(TIMEOUT).header("Accept", "application/json")
                    .GET().build(), HttpResponse.BodyHandlers.ofInputStream());
        } catch (IOException e) {
            throw new LookupFailed("cannot fetch " + url + ": " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LookupFailed("interrupted while fetching " + url);
        }
        try (InputStream body = response.body()) {
            if (response.statusCode() != 200) {
                throw new LookupFailed(url + " answered HTTP " + response.statusCode());
            }
            byte[] bytes = body.readNBytes(MAX_BYTES + 1);
            if (bytes.length > MAX_BYTES) {
                throw new LookupFailed(url + " answered more than 1 MiB");
            }
            JsonNode answer = json.readTree(bytes);
            JsonNode version = answer.has("TarballsVersion") ? answer.get("TarballsVersion") : answer.get("Version");
            if (version == null || !version.isString() || !RELEASE.matcher(version.asString()).matches()) {
                throw new LookupFailed(url + " names no release (TarballsVersion or Version such as \"1.90.9\")");
            }
            return version.asString();
        } catch (IOException e) {
            throw new LookupFailed("cannot read " + url + ": " + e.getMessage());
        } catch (JacksonException e) {
            throw new LookupFailed(url + " did not answer JSON");
        }
    }
}
