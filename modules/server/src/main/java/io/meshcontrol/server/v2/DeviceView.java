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
    record Facts(User owner, boolean online, String baseDomain) {
    }

    static Map<String, Object> of(Node node, Facts facts, boolean allFields) {
        JsonNode hostinfo = hostinfo(node.hostinfo());
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("addresses", List.of(node.ipv4(), node.ipv6()));
        d.put("id", Long.toString(node.id()));
        d.put("nodeId", node.stableId());
        d.put("user", facts.owner() == null ? "tagged-devices" : facts.owner().loginName());
        d.put("name", facts.baseDomain().isEmpty() ? node.givenName() : node.givenName() + "." + facts.baseDomain());
        d.put("hostname", node.hostname());
        d.put("clientVersion", hostinfo.path("IPNVersion").asString(""));
        d.put("updateAvailable", false);
        d.put("os", hostinfo.path("OS").asString(""));
        d.put("created", node.createdAt());
        d.put("connectedToControl", facts.online());
        if (!facts.online() && node.lastSeen() != null) {
            d.put("lastSeen", node.lastSeen());
        }
        d.put("keyExpiryDisabled", node.keyExpiryDisabled());
        if (node.keyExpiry() != null) {
            d.put("expires", node.keyExpiry());
        }
        d.put("authorized", node.authorized());
        d.put("isExternal", false);
        d.put("isEphemeral", node.ephemeral());
        d.put("machineKey", node.machineKey().toText());
        d.put("nodeKey", node.nodeKey().toText());
        d.put("blocksIncomingConnections", hostinfo.path("ShieldsUp").asBoolean(false));
        d.put("tags", node.tags());
        d.put("tailnetLockKey", "");
        d.put("tailnetLockError", "");
        if (allFields) {
            d.put("enabledRoutes", texts(RoutePrefixes.sorted(node.approvedRoutes())));
            d.put("advertisedRoutes", texts(RoutePrefixes.sorted(node.advertisedRoutes())));
            d.put("clientConnectivity", connectivity(node, hostinfo.path("NetInfo")));
            d.put("sshEnabled", !hostinfo.path("sshHostKeys").isEmpty());
            d.put("postureIdentity", Map.of("serialNumbers", List.of(), "disabled", true));
            d.put("distro", Map.of("name", hostinfo.path("Distro").asString(""),
                    "version", hostinfo.path("DistroVersion").asString(""),
                    "codeName", hostinfo.path("DistroCodeName").asString("")));
        }
        return d;
    }

    /** What the client reported of its network: endpoints, the relay it prefers, latencies by relay region. */
    private static Map<String, Object> connectivity(Node node, JsonNode netInfo) {
        Map<String, Object> latency = new LinkedHashMap<>();
        int preferred = netInfo.path("PreferredDERP").asInt(0);
        netInfo.path("DERPLatency").properties().forEach(entry -> {
            // Keys are "<region>-v4" / "<region>-v6" in seconds; the vendor reports one entry per region, in ms.
            String region = entry.getKey().replaceAll("-v[46]$", "");
            double ms = entry.getValue().asDouble() * 1000;
            @SuppressWarnings("unchecked")
            Map<String, Object> known = (Map<String, Object>) latency.get(region);
            if (known == null || ((Double) known.get("latencyMs")) > ms) {
                Map<String, Object> value = new LinkedHashMap<>();
                if (region.equals(Integer.toString(preferred))) {
                    value.put("preferred", true);
                }
                value.put("latencyMs", ms);
                latency.put(region, value);
            }
        });
        Map<String, Object> supports = new LinkedHashMap<>();
        supports.put("hairPinning", netInfo.path("HairPinning").asBoolean(false));
        supports.put("ipv6", netInfo.path("WorkingIPv6").asBoolean(false));
        supports.put("pcp", netInfo.path("PCP").asBoolean(false));
        supports.put("pmp", netInfo.path("PMP").asBoolean(false));
        supports.put("udp", netInfo.path("WorkingUDP").asBoolean(false));
        supports.put("upnp", netInfo.path("UPnP").asBoolean(false));
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("endpoints", node.endpoints());
        c.put("derp", preferred == 0 ? "" : Integer.toString(preferred));
        c.put("mappingVariesByDestIP", netInfo.path("MappingVariesByDestIP").asBoolean(false));
        c.put("latency", latency);
        c.put("clientSupports", supports);
        return c;
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
