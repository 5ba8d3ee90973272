package io.meshcontrol.core.state;

import io.meshcontrol.core.address.AddressPool;
import java.time.Duration;

/**
 * The configuration the state services need (from {@code prefixes.*} and {@code node.*}).
 *
 * @param nodeKeyExpiry lifetime of node keys; zero means they do not expire
 * @param routesHighAvailability {@code node.routes.ha}: subnet routes fail over to the next healthy router
 */
public record NetworkOptions(String prefixV4, String prefixV6, AddressPool.Allocation allocation, Duration nodeKeyExpiry,
        boolean routesHighAvailability) {

    /** With high availability on, its default. */
    public NetworkOptions(String prefixV4, String prefixV6, AddressPool.Allocation allocation, Duration nodeKeyExpiry) {
        this(prefixV4, prefixV6, allocation, nodeKeyExpiry, true);
    }

    public static NetworkOptions defaults() {
        return new NetworkOptions("100.64.0.0/10", "fd7a:115c:a1e0::/48", AddressPool.Allocation.SEQUENTIAL, Duration.ZERO);
    }
}
