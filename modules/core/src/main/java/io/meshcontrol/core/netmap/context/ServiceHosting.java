package io.meshcontrol.core.netmap.context;

import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.model.VipService;
import io.meshcontrol.core.net.IpPrefix;
import io.meshcontrol.core.wire.FilterRule;
import io.meshcontrol.core.wire.NetPortRange;
import io.meshcontrol.core.wire.RawJson;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Services (the vendor's VIP services) as maps carry them. A service is hosted by every approved node that carries
 * one of its tags: such a host gets the {@code service-host} capability naming the service's addresses (what the
 * vendor's client reads to accept traffic to them), peers find the addresses in the host's {@code AllowedIPs}, and
 * the host's packet filter admits traffic to them exactly as it admits traffic to the host's own addresses.
 *
 * @param services every service of the network
 */
public record ServiceHosting(List<VipService> services) {

    /** No services. */
    public static final ServiceHosting NONE = new ServiceHosting(List.of());

    /** The node capability that tells a host which services it may serve, on which addresses. */
    public static final String SERVICE_HOST = "service-host";

    public ServiceHosting {
        services = List.copyOf(services);
    }

    /** The services {@code node} hosts, in the order given. */
    public List<VipService> hostedBy(Node node) {
        if (services.isEmpty() || node.tags().isEmpty() || !node.admitted()) {
            return List.of();
        }
        return services.stream().filter(s -> s.tags().stream().anyMatch(node.tags()::contains)).toList();
    }

    /** The addresses of the services {@code node} hosts, as single-address prefixes for its {@code AllowedIPs}. */
    public List<IpPrefix> prefixes(Node node) {
        List<IpPrefix> prefixes = new ArrayList<>();
        for (VipService service : hostedBy(node)) {
            prefixes.add(IpPrefix.parse(service.ipv4() + "/32"));
            prefixes.add(IpPrefix.parse(service.ipv6() + "/128"));
        }
        return prefixes;
    }

    /** The node's capabilities with {@code service-host} added when it hosts a service. */
    public Map<String, List<RawJson>> capabilities(Node node, Map<String, List<RawJson>> capMap) {
        List<VipService> hosted = hostedBy(node);
        if (hosted.isEmpty()) {
            return capMap;
        }
        Map<String, List<String>> addresses = new LinkedHashMap<>();
        hosted.forEach(service -> addresses.put(service.name(), service.addresses()));
        Map<String, List<RawJson>> with = new LinkedHashMap<>(capMap);
        with.put(SERVICE_HOST, List.of(RawJson.encode(addresses)));
        return with;
    }

    /**
     * The host's packet filter with every destination that names the host's own address repeated for the addresses
     * of the services it hosts: a peer may reach a service on what it may reach of its host.
     */
    public List<FilterRule> packetFilter(Node node, List<FilterRule> rules) {
        List<VipService> hosted = hostedBy(node);
        if (hosted.isEmpty()) {
            return rules;
        }
        List<FilterRule> extended = new ArrayList<>(rules.size());
        for (FilterRule rule : rules) {
            List<NetPortRange> dsts = new ArrayList<>(rule.dstPorts());
            for (NetPortRange dst : rule.dstPorts()) {
                for (VipService service : hosted) {
                    String address = forServiceOf(dst.ip(), node, service);
                    if (address != null) {
                        dsts.add(new NetPortRange(address, dst.bits(), dst.ports()));
                    }
                }
            }
            extended.add(dsts.size() == rule.dstPorts().size() ? rule
                    : new FilterRule(rule.srcIps(), rule.srcBits(), dsts, rule.ipProto(), rule.capGrant()));
        }
        return extended;
    }

    /** The service's address in the form of {@code ip} when {@code ip} is one of the node's own, else null. */
    private static String forServiceOf(String ip, Node node, VipService service) {
        if (ip.equals(node.ipv4())) {
            return service.ipv4();
        }
        if (ip.equals(node.ipv4() + "/32")) {
            return service.ipv4() + "/32";
        }
        if (ip.equals(node.ipv6())) {
            return service.ipv6();
        }
        if (ip.equals(node.ipv6() + "/128")) {
            return service.ipv6() + "/128";
        }
        return null;
    }
}
