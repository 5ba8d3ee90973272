package io.meshcontrol.server.metrics;

import io.meshcontrol.core.net.IpAddress;
import io.undertow.server.HttpServerExchange;
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
import java.util.Map;

/**
 * Who may read {@code /debug/*} on the metrics listener ("Authentication" item 7 of the spec): a request from
 * this machine (a loopback address), a request carrying the debug key as query parameter {@code debugkey}, or a
 * request from the one extra address of {@code MESH_ALLOW_DEBUG_IP} unless it carries {@code X-Forwarded-For} (a
 * proxy on that address forwards requests of others). {@code /metrics} needs none of this.
 *
 * @param key the debug key (read from the file {@code MESH_DEBUG_KEY_PATH} names), or null for none
 * @param extraAddress the address of {@code MESH_ALLOW_DEBUG_IP}, or null for none
 */
public record DebugAccess(String key, InetAddress extraAddress) {

    /** Names the file holding the debug key. */
    public static final String KEY_PATH_VARIABLE = "MESH_DEBUG_KEY_PATH";
    /** Names one more address allowed without a key. */
    public static final String ALLOW_IP_VARIABLE = "MESH_ALLOW_DEBUG_IP";
    static final HttpString FORWARDED_FOR = new HttpString("X-Forwarded-For");

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
        return allows(source == null ? null : source.getAddress(),
                exchange.getRequestHeaders().contains(FORWARDED_FOR), keys == null ? null : keys.peekFirst());
    }

    /**
     * @param source the connection's remote address
     * @param forwarded whether the request has an {@code X-Forwarded-For} header
     * @param offeredKey the {@code debugkey} query parameter, or null
     */
    boolean allows(InetAddress source, boolean forwarded, String offeredKey) {
        if (source != null && source.isLoopbackAddress()) {
            return true;
        }
        if (key != null && offeredKey != null && MessageDigest.isEqual(key.getBytes(StandardCharsets.UTF_8),
                offeredKey.getBytes(StandardCharsets.UTF_8))) {
            return true;
        }
        return extraAddress != null && !forwarded && extraAddress.equals(source);
    }

    /** The refusal: 403 with the ways in (never the key or the extra address). */
    static void refuse(HttpServerExchange exchange) {
        exchange.setStatusCode(403);
        exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "text/plain; charset=utf-8");
        exchange.getResponseSender().send("debug pages are served to localhost, to requests with ?debugkey= (the key in "
                + "the file " + KEY_PATH_VARIABLE + " names) and to the address in " + ALLOW_IP_VARIABLE + "\n");
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value.strip();
    }

    @Override
    public String toString() {
        return "DebugAccess[key=" + (key == null ? "none" : "set") + ", extraAddress=" + extraAddress + "]";
    }
}
