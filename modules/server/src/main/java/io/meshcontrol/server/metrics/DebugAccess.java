package io.meshcontrol.server.metrics;

import io.meshcontrol.core.net.IpAddress;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.HeaderMap;
import io.undertow.util.Headers;
import io.undertow.util.HttpString;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Who may read {@code /debug/*} on the metrics listener ("Authentication" item 7 of the spec): a request carrying
 * the debug key as query parameter {@code debugkey}, or, when it carries no forwarding header at all, a request from
 * this machine (a loopback address) or from the one extra address of {@code MESH_ALLOW_DEBUG_IP}. A forwarding
 * header says a proxy on that address passes on someone else's request, so, as the vendor's rule has it, only the key
 * lets such a request in. {@code /metrics} needs none of this.
 *
 * @param key the debug key (read from the file {@code MESH_DEBUG_KEY_PATH} names), or null for none
 * @param extraAddress the address of {@code MESH_ALLOW_DEBUG_IP}, or null for none
 */
public record DebugAccess(String key, InetAddress extraAddress) {

    /** Names the file holding the debug key. */
    public static final String KEY_PATH_VARIABLE = "MESH_DEBUG_KEY_PATH";
    /** Names one more address allowed without a key. */
    public static final String ALLOW_IP_VARIABLE = "MESH_ALLOW_DEBUG_IP";
    /** Headers a proxy adds for the client it forwards: the standard one and the common de facto ones. */
    static final List<HttpString> FORWARDING_HEADERS = Stream.of("Forwarded", "X-Forwarded-For", "X-Forwarded-Host",
            "X-Forwarded-Proto", "X-Real-IP", "X-Client-IP", "True-Client-IP", "CF-Connecting-IP", "Fastly-Client-IP",
            "X-Cluster-Client-IP", "Forwarded-For", "X-Original-Forwarded-For", "Via").map(HttpString::new).toList();

    /** Only this machine. */
    public static final DebugAccess LOCAL_ONLY = new DebugAccess(null, null);

    /**
     * The access the environment asks for. A key file that cannot be read or is empty, or an extra address that is
     * not an IP address, stops the start: the operator asked for access they would otherwise not get.
     *
     * @throws IllegalArgumentException naming the variable and the problem
     */
    public static DebugAccess fromEnvironment(Map<String, String> environment) {
        String keyPath = blankToNull(environment.get(KEY_PATH_VARIABLE));
        String key = null;
        if (keyPath != null) {
            try {
                key = Files.readString(Path.of(keyPath), StandardCharsets.UTF_8).strip();
            } catch (IOException | UncheckedIOException e) {
                throw new IllegalArgumentException(KEY_PATH_VARIABLE + ": cannot read the debug key from " + keyPath
                        + ": " + e.getMessage(), e);
            }
            if (key.isEmpty()) {
                throw new IllegalArgumentException(KEY_PATH_VARIABLE + ": the debug key file " + keyPath + " is empty");
            }
        }
        String ip = blankToNull(environment.get(ALLOW_IP_VARIABLE));
        InetAddress extra = null;
        if (ip != null) {
            try {
                // getByAddress turns an IPv4-mapped IPv6 address into the IPv4 address, as sockets report peers.
                extra = InetAddress.getByAddress(IpAddress.parse(ip).bytes());
            } catch (IllegalArgumentException | java.net.UnknownHostException e) {
                throw new IllegalArgumentException(ALLOW_IP_VARIABLE + " must be one IP address, got \"" + ip + "\"");
            }
        }
        return new DebugAccess(key, extra);
    }

    /** Whether this request may read a debug page. */
    public boolean allows(HttpServerExchange exchange) {
        InetSocketAddress source = exchange.getSourceAddress();
        Deque<String> keys = exchange.getQueryParameters().get("debugkey");
        return allows(source == null ? null : source.getAddress(), forwarded(exchange.getRequestHeaders()),
                keys == null ? null : keys.peekFirst());
    }

    /** Whether a proxy forwarded the request: it carries any of the {@link #FORWARDING_HEADERS}. */
    static boolean forwarded(HeaderMap headers) {
        return FORWARDING_HEADERS.stream().anyMatch(headers::contains);
    }

    /**
     * @param source the connection's remote address
     * @param forwarded whether the request has a forwarding header
     * @param offeredKey the {@code debugkey} query parameter, or null
     */
    boolean allows(InetAddress source, boolean forwarded, String offeredKey) {
        if (key != null && offeredKey != null && MessageDigest.isEqual(key.getBytes(StandardCharsets.UTF_8),
                offeredKey.getBytes(StandardCharsets.UTF_8))) {
            return true;
        }
        if (forwarded || source == null) {
            return false;
        }
        return source.isLoopbackAddress() || source.equals(extraAddress);
    }

    /** The refusal: 403 with the ways in (never the key or the extra address). */
    static void refuse(HttpServerExchange exchange) {
        exchange.setStatusCode(403);
        exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "text/plain; charset=utf-8");
        exchange.getResponseSender().send("debug pages are served to requests with ?debugkey= (the key in the file "
                + KEY_PATH_VARIABLE + " names) and, when no proxy forwarded them (X-Forwarded-For, Forwarded, "
                + "X-Real-IP and the like), to localhost and the address in " + ALLOW_IP_VARIABLE + "\n");
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value.strip();
    }

    @Override
    public String toString() {
        return "DebugAccess[key=" + (key == null ? "none" : "set") + ", extraAddress=" + extraAddress + "]";
    }
}
