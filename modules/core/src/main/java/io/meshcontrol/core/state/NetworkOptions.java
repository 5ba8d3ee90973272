package io.meshcontrol.core.state;

import io.meshcontrol.core.address.AddressPool;
import io.meshcontrol.core.model.DnsSettings;
import io.meshcontrol.core.config.MeshConfig;
import java.time.Duration;

/**
 * The configuration the state services need (from {@code prefixes.*}, {@code node.*}, {@code api_keys.*},
 * {@code preauth_keys.*} and {@code dns.*}).
 *
 * @param nodeKeyExpiry lifetime of node keys; zero means they do not expire
 * @param routesHighAvailability {@code node.routes.ha}: subnet routes fail over to the next healthy router
 * @param maxKeyLifetimes the longest API keys and pre-auth keys may live
 * @param dns {@code dns.*}: in force until DNS is saved through the API, and MagicDNS always
 * @param map what the configuration fixes of every map (base domain, extra records, dial plan, certificates)
 */
public record NetworkOptions(String prefixV4, String prefixV6, AddressPool.Allocation allocation, Duration nodeKeyExpiry,
        boolean routesHighAvailability, MaxKeyLifetimes maxKeyLifetimes, DnsSettings dns, MapOptions map) {

    /** Without map options ({@link MapOptions#NONE}). */
    public NetworkOptions(String prefixV4, String prefixV6, AddressPool.Allocation allocation, Duration nodeKeyExpiry,
            boolean routesHighAvailability, MaxKeyLifetimes maxKeyLifetimes, DnsSettings dns) {
        this(prefixV4, prefixV6, allocation, nodeKeyExpiry, routesHighAvailability, maxKeyLifetimes, dns,
                MapOptions.NONE);
    }

    /** With the default key lifetime caps and DNS. */
    public NetworkOptions(String prefixV4, String prefixV6, AddressPool.Allocation allocation, Duration nodeKeyExpiry,
            boolean routesHighAvailability) {
        this(prefixV4, prefixV6, allocation, nodeKeyExpiry, routesHighAvailability, MaxKeyLifetimes.defaults(),
                DnsSettings.defaults());
    }

    /** With high availability on, its default. */
    public NetworkOptions(String prefixV4, String prefixV6, AddressPool.Allocation allocation, Duration nodeKeyExpiry) {
        this(prefixV4, prefixV6, allocation, nodeKeyExpiry, true);
    }

    /** The same options with other key lifetime caps. */
    public NetworkOptions withMaxKeyLifetimes(MaxKeyLifetimes caps) {
        return new NetworkOptions(prefixV4, prefixV6, allocation, nodeKeyExpiry, routesHighAvailability, caps, dns,
                map);
    }

    /** The same options with other map options. */
    public NetworkOptions withMapOptions(MapOptions options) {
        return new NetworkOptions(prefixV4, prefixV6, allocation, nodeKeyExpiry, routesHighAvailability,
                maxKeyLifetimes, dns, options);
    }

    /** The options the configuration gives. */
    public static NetworkOptions from(MeshConfig config) {
        AddressPool.Allocation allocation = config.prefixes().allocation() == MeshConfig.Prefixes.Allocation.RANDOM
                ? AddressPool.Allocation.RANDOM : AddressPool.Allocation.SEQUENTIAL;
        MeshConfig.Dns dns = config.dns();
        return new NetworkOptions(config.prefixes().v4(), config.prefixes().v6(), allocation, config.node().expiry(),
                config.node().routes().ha(), new MaxKeyLifetimes(config.apiKeys().maxExpiration(),
                        config.preauthKeys().maxExpiration()),
                DnsSettings.configured(dns.magicDns(), dns.overrideLocalDns(),
                        dns.nameservers().global(), dns.nameservers().split(), dns.searchDomains()),
                MapOptions.from(config));
    }

    public static NetworkOptions defaults() {
        return new NetworkOptions("100.64.0.0/10", "fd7a:115c:a1e0::/48", AddressPool.Allocation.SEQUENTIAL, Duration.ZERO);
    }
}
