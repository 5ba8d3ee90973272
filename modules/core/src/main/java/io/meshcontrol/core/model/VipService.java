package io.meshcontrol.core.model;

import java.util.List;
import java.util.Map;

/**
 * A service (the vendor's VIP service): a name of its own in the network, {@code svc:<label>}, with addresses
 * from the node pool that stay for its life, the ports it serves and the tags of the nodes that may host it.
 *
 * @param ports {@code tcp:<port>}, {@code udp:<port>} (or a range {@code <low>-<high>}), or {@code do-not-validate}
 * @param annotations kept as given (the Kubernetes operator records its owners here)
 */
public record VipService(String name, String ipv4, String ipv6, String comment, Map<String, String> annotations,
        List<String> ports, List<String> tags) {

    public VipService {
        comment = comment == null ? "" : comment;
        annotations = annotations == null ? Map.of() : Map.copyOf(annotations);
        ports = ports == null ? List.of() : List.copyOf(ports);
        tags = tags == null ? List.of() : List.copyOf(tags);
    }

    /** IPv4 first, then IPv6, as the vendor lists them. */
    public List<String> addresses() {
        return List.of(ipv4, ipv6);
    }
}
