package io.meshcontrol.core.netmap;

import io.meshcontrol.core.wire.DERPMap;
import io.meshcontrol.core.wire.DNSConfig;

/**
 * What every map carries besides nodes, from configuration and runtime settings.
 *
 * @param baseDomain MagicDNS suffix: node names are {@code <name>.<baseDomain>.}
 * @param dnsConfig the DNS configuration sent to every node
 * @param derpMap the relay map sent to every node
 */
public record MapContext(String tailnetId, String baseDomain, DNSConfig dnsConfig, DERPMap derpMap) {

    public MapContext withDerpMap(DERPMap map) {
        return new MapContext(tailnetId, baseDomain, dnsConfig, map);
    }
}
