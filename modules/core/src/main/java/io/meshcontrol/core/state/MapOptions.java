package io.meshcontrol.core.state;

import io.meshcontrol.core.config.MeshConfig;
import io.meshcontrol.core.net.IpAddress;
import io.meshcontrol.core.wire.ControlDialPlan;
import io.meshcontrol.core.wire.DNSRecord;
import java.util.ArrayList;
import java.util.List;

/**
 * The parts of the map context the configuration fixes ({@link MapContextState} holds the rest, which changes).
 *
 * @param baseDomain MagicDNS suffix ({@code dns.base_domain})
 * @param extraRecords DNS records MagicDNS answers besides the nodes' names ({@code dns.extra_records})
 * @param dialPlan the addresses clients try for this server before resolving its name ({@code control_dial_plan}),
 *                 or null for none
 * @param httpsCertificates whether nodes may get certificates for their names ({@code https_certificates.enabled})
 */
public record MapOptions(String baseDomain, List<DNSRecord> extraRecords, ControlDialPlan dialPlan,
                         boolean httpsCertificates) {

    /** No base domain, records, dial plan or certificates: what core's tests build maps with. */
    public static final MapOptions NONE = new MapOptions("", List.of(), null, false);

    /** How long a client tries one address of the dial plan before the next (and, after all, DNS). */
    static final double DIAL_TIMEOUT_SECONDS = 10;

    public MapOptions {
        extraRecords = List.copyOf(extraRecords);
    }

    /** The options the configuration gives. */
    public static MapOptions from(MeshConfig config) {
        return new MapOptions(config.dns().baseDomain(), config.dns().extraRecords().stream()
                .map(r -> new DNSRecord(r.name(), r.type(), r.value())).toList(),
                dialPlan(config.controlDialPlan()), config.httpsCertificates().enabled());
    }

    /**
     * The dial plan of {@code control_dial_plan}: the addresses in the file's order, the first preferred (highest
     * priority); none is no plan, so clients rely on DNS.
     */
    static ControlDialPlan dialPlan(List<String> addresses) {
        if (addresses.isEmpty()) {
            return null;
        }
        List<ControlDialPlan.Candidate> candidates = new ArrayList<>();
        for (int i = 0; i < addresses.size(); i++) {
            candidates.add(new ControlDialPlan.Candidate(IpAddress.parse(addresses.get(i)), "", 0,
                    DIAL_TIMEOUT_SECONDS, addresses.size() - i));
        }
        return new ControlDialPlan(candidates);
    }
}
