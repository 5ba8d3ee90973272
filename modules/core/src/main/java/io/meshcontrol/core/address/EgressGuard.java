package io.meshcontrol.core.address;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Which addresses the server may send its own outgoing requests to (DERP map URLs, webhooks, OIDC issuers): never the
 * unspecified address, link-local or multicast ones, nor a known cloud metadata service (whatever the settings say),
 * loopback only when {@code egress.allow_loopback_targets} says so, private ranges unless
 * {@code egress.deny_private_targets}. The check is made on the resolved address, so a name that resolves to a
 * refused address is refused too; an IPv6 address that carries an IPv4 one (NAT64, IPv4-compatible, 6to4) is judged
 * by the IPv4 address it reaches.
 */
public record EgressGuard(boolean denyPrivateTargets, boolean allowLoopbackTargets) {

    /** The configuration's defaults: loopback, link-local and unspecified refused, private ranges allowed. */
    public static final EgressGuard DEFAULT = new EgressGuard(false, false);

    /**
     * Cloud metadata services outside the link-local ranges (those in 169.254/16 and fe80::/10 are refused as
     * link-local): they hand out the machine's cloud credentials to whoever asks, so they are refused even where
     * private targets are allowed. Each is documented by its provider.
     */
    static final List<InetAddress> METADATA_SERVICES = List.of(
            address("100.100.100.200"), // Alibaba Cloud, inside carrier-grade NAT space
            address("168.63.129.16"),   // Azure WireServer, a public address answered inside Azure only
            address("192.0.0.192"),     // Oracle Cloud
            address("fd00:ec2::254"),   // AWS instance metadata over IPv6
            address("fd00:ec2::23"),    // AWS EKS Pod Identity agent over IPv6
            address("fd20:ce::254"));   // Google Cloud metadata over IPv6

    /** Why {@code address} is refused, or empty when it may be contacted. */
    public Optional<String> refusal(InetAddress address) {
        Optional<InetAddress> embedded = embeddedIpv4(address);
        if (embedded.isPresent()) {
            return refusal(embedded.get()).map(reason -> reason + " (inside " + address.getHostAddress() + ")");
        }
        if (METADATA_SERVICES.contains(address)) {
            return Optional.of("the cloud metadata service address " + address.getHostAddress());
        }
        if (address.isAnyLocalAddress()) {
            return Optional.of("the unspecified address " + address.getHostAddress());
        }
        if (address.isLoopbackAddress() && !allowLoopbackTargets) {
            return Optional.of("the loopback address " + address.getHostAddress()
                    + " (egress.allow_loopback_targets is off)");
        }
        if (address.isLinkLocalAddress() || address.isMulticastAddress()) {
            return Optional.of("the " + (address.isMulticastAddress() ? "multicast" : "link-local") + " address "
                    + address.getHostAddress());
        }
        if (denyPrivateTargets && isPrivate(address)) {
            return Optional.of("the private address " + address.getHostAddress()
                    + " (egress.deny_private_targets is on)");
        }
        return Optional.empty();
    }

    /**
     * Why a URL's host is refused before it is resolved: an IPv4 address written in another form than four decimal
     * numbers (octal {@code 0177.0.0.1}, hex {@code 0x7f.0.0.1}, short {@code 127.1}, the integer {@code 2130706433}).
     * Resolvers disagree on those forms (the C library reads {@code 0177} as octal), so the address the guard would
     * check need not be the one that is dialled. A host whose last label is a number is such a form: no top-level
     * domain is numeric.
     */
    public static Optional<String> hostRefusal(String host) {
        String name = host.endsWith(".") ? host.substring(0, host.length() - 1) : host;
        String last = name.substring(name.lastIndexOf('.') + 1);
        if (!NUMBER.matcher(last).matches() || DOTTED_DECIMAL.matcher(host).matches()) {
            return Optional.empty();
        }
        return Optional.of("its host " + host + " is an IPv4 address in a form other than four decimal numbers "
                + "(octal, hexadecimal, short or integer forms are not used); write it as a.b.c.d");
    }

    private static final Pattern NUMBER = Pattern.compile("0[xX][0-9A-Fa-f]*|[0-9]+");
    private static final Pattern DOTTED_DECIMAL = Pattern.compile(
            "((25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\\.){3}(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])");

    /**
     * The IPv4 address an IPv6 one leads to: NAT64 (64:ff9b::/96, RFC 6052), IPv4-compatible (::a.b.c.d, not :: and
     * ::1) and 6to4 (2002:a.b.c.d::/48). IPv4-mapped addresses need no rule: Java reads them as IPv4 already.
     */
    private static Optional<InetAddress> embeddedIpv4(InetAddress address) {
        if (!(address instanceof Inet6Address)) {
            return Optional.empty();
        }
        byte[] b = address.getAddress();
        byte[] nat64 = {0, 0x64, (byte) 0xff, (byte) 0x9b, 0, 0, 0, 0, 0, 0, 0, 0};
        if (Arrays.equals(b, 0, 12, nat64, 0, 12)) {
            return Optional.of(ipv4(b, 12));
        }
        if (Arrays.equals(b, 0, 12, new byte[12], 0, 12) && (b[12] | b[13] | b[14]) != 0) {
            return Optional.of(ipv4(b, 12));
        }
        if (b[0] == 0x20 && b[1] == 0x02) {
            return Optional.of(ipv4(b, 2));
        }
        return Optional.empty();
    }

    private static InetAddress ipv4(byte[] bytes, int from) {
        try {
            return InetAddress.getByAddress(Arrays.copyOfRange(bytes, from, from + 4));
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e); // four bytes are always an address
        }
    }

    private static InetAddress address(String literal) {
        try {
            return InetAddress.getByName(literal); // a literal: no lookup
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    private static boolean isPrivate(InetAddress address) {
        if (address instanceof Inet4Address) {
            byte[] b = address.getAddress();
            // 10/8, 172.16/12, 192.168/16, and 100.64/10 (carrier-grade NAT, where mesh addresses live)
            return address.isSiteLocalAddress() || (b[0] & 0xff) == 100 && (b[1] & 0xc0) == 64;
        }
        if (address instanceof Inet6Address) {
            return (address.getAddress()[0] & 0xfe) == 0xfc; // unique local fc00::/7
        }
        return false;
    }
}
