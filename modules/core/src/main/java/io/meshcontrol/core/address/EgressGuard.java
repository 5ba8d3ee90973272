package io.meshcontrol.core.address;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.Optional;

/**
 * Which addresses the server may send its own outgoing requests to (DERP map URLs, webhooks): never the unspecified
 * address or link-local ones (cloud metadata services live there), loopback only when {@code egress.allow_loopback_targets}
 * says so, private ranges unless {@code egress.deny_private_targets}. The check is made on the resolved address, so a
 * name that resolves to a refused address is refused too.
 */
public record EgressGuard(boolean denyPrivateTargets, boolean allowLoopbackTargets) {

    /** The configuration's defaults: loopback, link-local and unspecified refused, private ranges allowed. */
    public static final EgressGuard DEFAULT = new EgressGuard(false, false);

    /** Why {@code address} is refused, or empty when it may be contacted. */
    public Optional<String> refusal(InetAddress address) {
        if (address.isAnyLocalAddress()) {
            return Optional.of("the unspecified address " + address.getHostAddress());
        }
        if (address.isLoopbackAddress() && !allowLoopbackTargets) {
            return Optional.of("the loopback address " + address.getHostAddress());
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
