package io.meshcontrol.core.config;

import java.util.regex.Pattern;

/**
 * A listen address in Go's {@code host:port} form, as the configuration writes it: {@code 127.0.0.1:8080},
 * {@code [::1]:9090}, {@code :8080} (every interface), {@code 0.0.0.0:3478}. The port may also be the service names
 * {@code http} or {@code https}, because headscale's {@code tls_letsencrypt_listen} defaults to {@code :http}.
 *
 * @param host an IP literal without brackets, a host name, or empty for every interface
 * @param port 0 to 65535; 0 asks the operating system for a free port
 */
public record HostPort(String host, int port) {

    private static final Pattern HOST_NAME = Pattern.compile(
            "(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*");

    public HostPort {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port must be between 0 and 65535 (got " + port + ")");
        }
    }

    /**
     * @throws IllegalArgumentException naming what is wrong, e.g. a missing port or an unbracketed IPv6 address
     */
    public static HostPort parse(String text) {
        String host;
        String port;
        if (text.startsWith("[")) {
            int close = text.indexOf("]:");
            if (close < 0) {
                throw new IllegalArgumentException("must be host:port, e.g. [::1]:8080 (got " + Quote.of(text) + ")");
            }
            host = text.substring(1, close);
            port = text.substring(close + 2);
            if (Checks.ipv6Literal(host).isEmpty()) {
                throw new IllegalArgumentException("has an invalid IPv6 address in brackets (got " + Quote.of(text) + ")");
            }
        } else {
            int colon = text.lastIndexOf(':');
            if (colon < 0) {
                throw new IllegalArgumentException("must be host:port, e.g. 127.0.0.1:8080 (got " + Quote.of(text) + ")");
            }
            host = text.substring(0, colon);
            port = text.substring(colon + 1);
            if (host.contains(":")) {
                throw new IllegalArgumentException("must put an IPv6 host in brackets, e.g. [::1]:8080 (got " + Quote.of(text) + ")");
            }
            boolean numeric = host.matches("[0-9.]+"); // 300.1.1.1 would pass as a host name
            if (!host.isEmpty() && Checks.ipv4Literal(host).isEmpty() && (numeric || !HOST_NAME.matcher(host).matches())) {
                throw new IllegalArgumentException("has an invalid host " + Quote.of(host) + " (got " + Quote.of(text) + ")");
            }
        }
        return new HostPort(host, parsePort(port, text));
    }

    private static int parsePort(String port, String text) {
        switch (port) {
            case "http":
                return 80;
            case "https":
                return 443;
            default:
                if (port.matches("\\d{1,5}") && Integer.parseInt(port) <= 65535) {
                    return Integer.parseInt(port);
                }
                throw new IllegalArgumentException("must end in a port from 0 to 65535 (got " + Quote.of(text) + ")");
        }
    }

    /** The address in {@code host:port} form, bracketing an IPv6 host. */
    @Override
    public String toString() {
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }
}
