package io.meshcontrol.api;

import java.util.List;
import java.util.Map;

/**
 * The network's DNS: {@code GET /api/v1/dns} answers every field; {@code PUT} replaces what it names, and a field
 * left out keeps the value in force.
 *
 * @param magicDns whether machines get names under {@code baseDomain}; the configuration file's {@code dns.magic_dns},
 *                 so a {@code PUT} may repeat it but not change it
 * @param baseDomain the configuration file's {@code dns.base_domain}, read only in the same way
 * @param overrideLocalDns true: the nameservers replace the machines' own resolvers; false: machines keep theirs
 * @param nameservers the global resolvers, in the order machines try them
 * @param splitDns resolvers per domain (each domain with at least one), by domain
 * @param searchPaths extra search domains (the base domain always comes first)
 */
public record DnsView(Boolean magicDns, String baseDomain, Boolean overrideLocalDns, List<Nameserver> nameservers,
                      Map<String, List<Nameserver>> splitDns, List<String> searchPaths) {

    /**
     * A resolver.
     *
     * @param address an IP address or an {@code https://} DNS-over-HTTPS URL
     * @param useWithExitNode keep using it while the machine uses an exit node (clients 1.88.1 and later); false
     *                        when left out
     */
    public record Nameserver(String address, Boolean useWithExitNode) {
    }
}
