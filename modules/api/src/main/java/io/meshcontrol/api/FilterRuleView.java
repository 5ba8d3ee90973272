package io.meshcontrol.api;

import java.util.List;

/**
 * One rule of a packet filter as a person reads it: traffic from {@code sources} to {@code destinations} with one of
 * {@code protocols} is let in.
 *
 * @param sources addresses, prefixes, ranges {@code a-b} or {@code *}, as the filter names them
 * @param destinations the addresses and ports let in; for a capability grant the addresses it applies to, with
 *     {@code ports} empty
 * @param protocols protocol names ({@code tcp}, {@code udp}, {@code icmp}, ...) or numbers; a rule that names none
 *     lets in TCP, UDP and ICMP (v4 and v6), and says so here
 * @param capabilities the peer capabilities a capability grant gives; empty for a port rule
 */
public record FilterRuleView(List<String> sources, List<Destination> destinations, List<String> protocols,
        List<String> capabilities) {

    /**
     * @param address an address, a prefix, a range or {@code *}
     * @param ports {@code 22}, {@code 8000-8080} or {@code *} for every port
     */
    public record Destination(String address, String ports) {
    }
}
