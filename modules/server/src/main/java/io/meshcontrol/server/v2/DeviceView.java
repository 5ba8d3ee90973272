package io.meshcontrol.server.v2;

import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.model.User;
import io.meshcontrol.core.net.IpPrefix;
import io.meshcontrol.core.routes.RoutePrefixes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A node in the vendor's Device shape. {@code id} is the node's number and {@code nodeId} its stable id
 * ({@code n...CNTRL}); both address it. The default fields leave out routes, connectivity, SSH, posture identity and
 * distribution, as the vendor does; {@code fields=all} adds them. {@code lastSeen} is left out while the node is
 * connected or when it never was, and {@code expires} while its key does not expire.
 */
final class DeviceView {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private DeviceView() {
    }

    /** The facts about a node the view needs besides the node. */
    record Facts(User owner, boolean online, String baseDomain, String tailnetLockError) {
    }

    static Answers.Device of(Node node, Facts facts, boolean allFields) {
        JsonNode hostinfo = hostinfo(node.hostinfo());
        return new Answers.Device(List.of(node.ipv4(), node.ipv6()), Long.toString(node.id()), node.stableId(),
                facts.owner() == null ? "tagged-devices" : facts.owner().loginName(),
                facts.baseDomain().isEmpty() ? node.givenName() : node.givenName() + "." + facts.baseDomain(),
                node.hostname(), hostinfo.path("IPNVersion").asString(""), false, hostinfo.path("OS").asString(""),
                node.createdAt(), facts.online(), facts.online() ? null : node.lastSeen(),
                node.keyExpiryDisabled(), node.keyExpiry(), node.authorized(), false, node.ephemeral(),
                node.machineKey().toText(), node.nodeKey().toText(), hostinfo.path("ShieldsUp").asBoolean(false),
                node.tags(), "", facts.tailnetLockError(),
                allFields ? texts(RoutePrefixes.sorted(node.approvedRoutes())) : null,
                allFields ? texts(RoutePrefixes.sorted(node.advertisedRoutes())) : null,
                allFields ? connectivity(node, hostinfo.path("NetInfo")) : null,
                allFields ? !hostinfo.path("sshHostKeys").isEmpty() : null,
                allFields ? new Answers.PostureIdentity(List.of(), true) : null,
                allFields ? new Answers.Distro(hostinfo.path("Distro").asString(""),
                        hostinfo.path("DistroVersion").asString(""), hostinfo.path("DistroCodeName").asString(""))
                        : null);
    }

    /** What the client reported of its network: endpoints, the relay it prefers, latencies by relay region. */
    private static Answers.ClientConnectivity connectivity(Node node, JsonNode netInfo) {
        Map<String, Answers.Latency> latency = new LinkedHashMap<>();
        int preferred = netInfo.path("PreferredDERP").asInt(0);
        netInfo.path("DERPLatency").properties().forEach(entry -> {
            // Keys are "<region>-v4" / "<region>-v6" in seconds; the vendor reports one entry per region, in ms.
            String region = entry.getKey().replaceAll("-v[46]$", "");
            double ms = entry.getValue().asDouble() * 1000;
            Answers.Latency known = latency.get(region);
            if (known == null || known.latencyMs() > ms) {
                latency.put(region, new Answers.Latency(region.equals(Integer.toString(preferred)) ? true : null, ms));
            }
        });
        Answers.ClientSupports supports = new Answers.ClientSupports(netInfo.path("HairPinning").asBoolean(false),
                netInfo.path("WorkingIPv6").asBoolean(false), netInfo.path("PCP").asBoolean(false),
                netInfo.path("PMP").asBoolean(false), netInfo.path("WorkingUDP").asBoolean(false),
                netInfo.path("UPnP").asBoolean(false));
        return new Answers.ClientConnectivity(node.endpoints(), preferred == 0 ? "" : Integer.toString(preferred),
                netInfo.path("MappingVariesByDestIP").asBoolean(false), latency, supports);
    }

    private static JsonNode hostinfo(String text) {
        try {
            return JSON.readTree(text == null || text.isBlank() ? "{}" : text);
        } catch (RuntimeException e) {
            return JSON.createObjectNode();
        }
    }

    private static List<String> texts(List<IpPrefix> prefixes) {
        List<String> texts = new ArrayList<>();
        prefixes.forEach(p -> texts.add(p.toString()));
        return texts;
    }
}
