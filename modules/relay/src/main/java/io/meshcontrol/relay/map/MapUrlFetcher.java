package io.meshcontrol.relay.map;

import io.meshcontrol.core.address.EgressGuard;
import io.meshcontrol.core.model.DerpSettings;
import io.meshcontrol.core.net.IpAddress;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Optional;

/**
 * Fetches a DERP map from a URL under the outgoing-request rules: the host's resolved addresses must pass the
 * {@link EgressGuard} (no loopback, link-local or unspecified address), redirects are not followed, and at most
 * {@link #MAX_BYTES} are read. User info in the URL is sent as HTTP basic authentication.
 *
 * <p>The guard checks the addresses the name resolves to just before the request; the HTTP client resolves the name
 * again when it connects. A DNS answer that changes between the two (rebinding) is not caught; the map is only
 * read, never executed, and the short gap is accepted.
 */
public final class MapUrlFetcher {

    /** The spec's limit on a map download. */
    public static final int MAX_BYTES = 4 << 20;
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    /** Said with every unreachable map: the default map URL is on the internet, and a home lab may not be. */
    static final String OFFLINE_HINT = "; to run without internet access, list no map URLs (derp.urls: [] in the "
            + "configuration file, or svc derp set --url \"\")";

    /** Name resolution, replaceable so that tests never ask a real resolver. */
    @FunctionalInterface
    public interface Resolver {
        InetAddress[] resolve(String host) throws UnknownHostException;

        /** The system resolver (DNS). */
        static Resolver system() {
            return InetAddress::getAllByName;
        }

        /**
         * Answers IP literals only and refuses every name, so nothing is looked up: for servers in tests, which must
         * not send a DNS query off the machine.
         */
        static Resolver literalsOnly() {
            return host -> {
                try {
                    return new InetAddress[] {InetAddress.getByAddress(host, IpAddress.parse(host).bytes())};
                } catch (IllegalArgumentException e) {
                    throw new UnknownHostException(host + " (this server resolves no names)");
                }
            };
        }
    }

    private final EgressGuard guard;
    private final Resolver resolver;
    private final HttpClient http = HttpClient.newBuilder()
            .followRedirects(HttpClient.Redirect.NEVER)
            .connectTimeout(Duration.ofSeconds(10))
            .build();

    public MapUrlFetcher(EgressGuard guard, Resolver resolver) {
        this.guard = guard;
        this.resolver = resolver;
    }

    public MapUrlFetcher(EgressGuard guard) {
        this(guard, Resolver.system());
    }

    /** The map at {@code url}, parsed; any failure is a {@link MapSourceException} naming the URL and the reason. */
    public UrlMap fetch(String url) {
        String shown = DerpSettings.redactedUrl(url);
        URI uri;
        try {
            uri = URI.create(url);
        } catch (IllegalArgumentException e) {
            throw new MapSourceException("DERP map URL " + shown + " is not a URL");
        }
        checkAddresses(uri, shown);
        HttpRequest.Builder request = HttpRequest.newBuilder(MapUrls.withoutUserInfo(uri)).timeout(TIMEOUT).GET()
                .header("Accept", "application/json");
        if (uri.getRawUserInfo() != null) {
            request.header("Authorization", "Basic " + Base64.getEncoder().encodeToString(
                    MapUrls.decode(uri.getRawUserInfo()).getBytes(StandardCharsets.UTF_8)));
        }
        HttpResponse<InputStream> response;
        try {
            response = http.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
        } catch (IOException e) {
            throw new MapSourceException("cannot fetch DERP map " + shown + ": " + describe(e) + OFFLINE_HINT, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MapSourceException("interrupted while fetching DERP map " + shown, e);
        }
        try (InputStream body = response.body()) {
            int status = response.statusCode();
            if (status >= 300 && status < 400) {
                throw new MapSourceException("DERP map " + shown + " answered a redirect (" + status
                        + "), which is not followed; use the final URL");
            }
            if (status != 200) {
                throw new MapSourceException("DERP map " + shown + " answered HTTP " + status);
            }
            Optional<Long> length = response.headers().firstValueAsLong("Content-Length").stream().boxed().findFirst();
            if (length.isPresent() && length.get() > MAX_BYTES) {
                throw tooLarge(shown);
            }
            byte[] bytes = body.readNBytes(MAX_BYTES + 1);
            if (bytes.length > MAX_BYTES) {
                throw tooLarge(shown);
            }
            return new UrlMap(DerpMapFile.readJson(shown, bytes), new String(bytes, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new MapSourceException("cannot read DERP map " + shown + ": " + describe(e), e);
        }
    }

    private void checkAddresses(URI uri, String shown) {
        String host = uri.getHost();
        if (host == null) {
            throw new MapSourceException("DERP map URL " + shown + " has no host");
        }
        EgressGuard.hostRefusal(host).ifPresent(reason -> {
            throw new MapSourceException("DERP map URL " + shown + " is refused: " + reason);
        });
        InetAddress[] addresses;
        try {
            addresses = resolver.resolve(host.startsWith("[") ? host.substring(1, host.length() - 1) : host);
        } catch (UnknownHostException e) {
            throw new MapSourceException("cannot fetch DERP map " + shown + ": unknown host " + host + OFFLINE_HINT,
                    e);
        }
        for (InetAddress address : addresses) {
            Optional<String> refusal = guard.refusal(address);
            if (refusal.isPresent()) {
                throw new MapSourceException("DERP map URL " + shown + " points at " + refusal.get()
                        + ", which the server does not fetch from");
            }
        }
    }

    private static MapSourceException tooLarge(String shown) {
        return new MapSourceException("DERP map " + shown + " is larger than " + (MAX_BYTES >> 20) + " MiB");
    }

    private static String describe(IOException e) {
        if (e instanceof ConnectException && (e.getMessage() == null || e.getMessage().isBlank())) {
            return "the connection was refused or the host is unreachable"; // the JDK's HTTP client says no more
        }
        String message = e.getMessage();
        return message == null || message.isBlank() ? e.getClass().getSimpleName() : message;
    }
}
