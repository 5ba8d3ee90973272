package io.meshcontrol.core.config;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Strict IP literal parsing that never resolves a name. {@link InetAddress#getByName} alone would accept
 * {@code 1.2.3} or look a host name up in DNS, neither of which a configuration check may do.
 */
final class IpAddresses {

    private static final Pattern IPV4 = Pattern.compile("(0|[1-9]\\d{0,2})(\\.(0|[1-9]\\d{0,2})){3}");
    private static final Pattern IPV6_CHARS = Pattern.compile("[0-9A-Fa-f:.]+");

    private IpAddresses() {
    }

    /** 4 bytes for a dotted-quad IPv4 address, 16 for an IPv6 literal (no zone, no brackets), else empty. */
    static Optional<byte[]> parse(String text) {
        return isIpv4(text) ? Optional.of(ipv4Bytes(text)) : parseIpv6(text);
    }

    static boolean isIpv4(String text) {
        if (!IPV4.matcher(text).matches()) {
            return false;
        }
        for (String part : text.split("\\.")) {
            if (Integer.parseInt(part) > 255) {
                return false;
            }
        }
        return true;
    }

    static boolean isIpv6(String text) {
        return parseIpv6(text).isPresent();
    }

    private static byte[] ipv4Bytes(String text) {
        String[] parts = text.split("\\.");
        byte[] bytes = new byte[4];
        for (int i = 0; i < 4; i++) {
            bytes[i] = (byte) Integer.parseInt(parts[i]);
        }
        return bytes;
    }

    private static Optional<byte[]> parseIpv6(String text) {
        // A leading hex digit or ':' makes the JDK parse a literal; anything else could reach a name lookup.
        if (!text.contains(":") || !IPV6_CHARS.matcher(text).matches() || text.charAt(0) == '.') {
            return Optional.empty();
        }
        try {
            // With a ':' and only literal characters, the JDK parses the literal and never queries DNS.
            InetAddress address = InetAddress.getByName(text);
            if (address instanceof Inet4Address v4) {
                // The JDK turns ::ffff:a.b.c.d into an IPv4 address; keep it in the IPv6 family it was written in.
                byte[] mapped = new byte[16];
                mapped[10] = (byte) 0xff;
                mapped[11] = (byte) 0xff;
                System.arraycopy(v4.getAddress(), 0, mapped, 12, 4);
                return Optional.of(mapped);
            }
            return Optional.of(address.getAddress());
        } catch (UnknownHostException e) {
            return Optional.empty();
        }
    }
}
