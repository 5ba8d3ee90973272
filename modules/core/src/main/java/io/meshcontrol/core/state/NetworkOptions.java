package io.meshcontrol.core.state;

import io.meshcontrol.core.address.AddressPool;
import java.time.Duration;

/**
 * The configuration the state services need (from {@code prefixes.*} and {@code node.*}).
 *
 * @param nodeKeyExpiry lifetime of node keys; zero means they do not expire
 */
public record NetworkOptions(String prefixV4, String prefixV6, AddressPool.Allocation allocation, Duration nodeKeyExpiry) {

    public static NetworkOptions defaults() {
        return new NetworkOptions("100.64.0.0/10", "fd7a:115c:a1e0::/48", AddressPool.Allocation.SEQUENTIAL, Duration.ZERO);
    }
}
