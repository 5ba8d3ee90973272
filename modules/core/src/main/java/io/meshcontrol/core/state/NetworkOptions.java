package io.meshcontrol.core.state;

import io.meshcontrol.core.address.AddressPool;
import io.meshcontrol.core.model.DnsSettings;
import io.meshcontrol.core.config.MeshConfig;
import java.time.Duration;

/**
 * The configuration the state services need (from {@code prefixes.*} and {@code node.*}).
 *
 * @param nodeKeyExpiry lifetime of node keys; zero means they do not expire
 * @param routesHighAvailability {@code node.routes.ha}: subnet routes fail over to the next healthy router
 * @param dns {@code dns.*}: in force until DNS is saved through the API, and MagicDNS always
 */
public record NetworkOptions(String prefixV4, String prefixV6, AddressPool.Allocation allocation, Duration nodeKeyExpiry,
        boolean routesHighAvailability, DnsSettings dns) {

    /** With the default DNS. */
    public NetworkOptions(String prefixV4, String prefixV6, AddressPool.Allocation allocation, Duration nodeKeyExpiry,
            boolean routesHighAvailability) {
        this(prefixV4, prefixV6, allocation, nodeKeyExpiry, routesHighAvailability, DnsSettings.defaults());
    }

    /** With high availability on, its default. */
    public NetworkOptions(String prefixV4, String prefixV6, AddressPool.Allocation allocation, Duration nodeKeyExpiry) {
        this(prefixV4, prefixV6, allocation, nodeKeyExpiry, true);
    }

    /** The options {@code prefixes.*} and {@code node.*} of the configuration give. */
    public static NetworkOptions from(MeshConfig config) {
        AddressPool.Allocation allocation = config.prefixes().allocation() == MeshConfig.Prefixes.Allocation.RANDOM
                ? AddressPool.Allocation.RANDOM : AddressPool.Allocation.SEQUENTIAL;
        MeshConfig.Dns dns = config.dns();
        return new NetworkOptions(config.prefixes().v4(), config.prefixes().v6(), allocation, config.node().expiry(),
                config.node().routes().ha(), DnsSettings.configured(dns.magicDns(), dns.overrideLocalDns(),
                        dns.nameservers().global(), dns.nameservers().split(), dns.searchDomains()));
    }

    public static NetworkOptions defaults() {
        return new NetworkOptions("100.64.0.0/10", "fd7a:115c:a1e0::/48", AddressPool.Allocation.SEQUENTIAL, Duration.ZERO);
    }
}
