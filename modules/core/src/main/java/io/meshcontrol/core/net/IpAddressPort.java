package io.meshcontrol.core.net;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * An address and UDP/TCP port as Go's {@code netip.AddrPort} writes it: {@code "192.0.2.10:41641"},
 * {@code "[2001:db8::1]:41641"}. Used for node endpoints and SSH recorders. Immutable.
 */
public final class IpAddressPort {

    private final IpAddress address;
    private final int port;
    private final String text;

    private IpAddressPort(IpAddress address, int port) {
        this.address = address;
        this.port = port;
        this.text = address.isIpv4() ? address + ":" + port : "[" + address + "]:" + port;
    }

    /**
     * Parses text as Go's {@code netip.ParseAddrPort} does: {@code ip:port} for IPv4, {@code [ip]:port} for IPv6.
     *
     * @throws IllegalArgumentException when it is not an address and port
     */
    @JsonCreator
    public static IpAddressPort parse(String text) {
        int colon = text.lastIndexOf(':');
        if (colon < 0) {
            throw new IllegalArgumentException("not an address and port (no ':'): \"" + text + "\"");
        }
        String host = text.substring(0, colon);
        boolean bracketed = host.startsWith("[") && host.endsWith("]");
        if (bracketed) {
            host = host.substring(1, host.length() - 1);
        }
        IpAddress address = IpAddress.parse(host);
        if (address.isIpv4() == bracketed) {
            throw new IllegalArgumentException(
                    "IPv6 needs brackets and IPv4 must not have them: \"" + text + "\"");
        }
        String portText = text.substring(colon + 1);
        int port = -1;
        if (!portText.isEmpty() && portText.length() <= 5 && portText.chars().allMatch(c -> c >= '0' && c <= '9')) {
            port = Integer.parseInt(portText);
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("bad port in \"" + text + "\"");
        }
        return new IpAddressPort(address, port);
    }

    /** {@code address} and {@code port} (0..65535). */
    public static IpAddressPort of(IpAddress address, int port) {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("a port lies in 0..65535, got " + port);
        }
        return new IpAddressPort(address, port);
    }

    public IpAddress address() {
        return address;
    }

    public int port() {
        return port;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof IpAddressPort that && port == that.port && address.equals(that.address);
    }

    @Override
    public int hashCode() {
        return address.hashCode() * 31 + port;
    }

    /** Go's text form. */
    @JsonValue
    @Override
    public String toString() {
        return text;
    }
}
