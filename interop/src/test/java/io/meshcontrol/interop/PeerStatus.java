package io.meshcontrol.interop;

import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * One node as {@code tailscale status --json} describes it (ipnstate.PeerStatus): the node itself in
 * {@code Self}, or one entry of {@code Peer}. Only the fields tests commonly check are lifted out;
 * everything else is in {@link #json()}.
 *
 * @param id           the control server's stable node ID ({@code ID}); empty before login
 * @param publicKey    {@code nodekey:<hex>}; all zeros before login
 * @param hostName     the machine's host name as reported in Hostinfo ({@code HostName})
 * @param dnsName      the MagicDNS FQDN with its trailing dot ({@code DNSName}); empty before login
 * @param os           {@code linux}, ...
 * @param tailscaleIps the node's addresses; empty before login
 * @param tags         ACL tags ({@code Tags}); empty for user-owned nodes
 * @param online       what control last said about the peer ({@code Online}); false for Self before login
 * @param json         the whole object
 */
public record PeerStatus(String id, String publicKey, String hostName, String dnsName, String os,
        List<String> tailscaleIps, List<String> tags, boolean online, JsonNode json) {

    static PeerStatus from(JsonNode node) {
        return new PeerStatus(
                text(node, "ID"),
                text(node, "PublicKey"),
                text(node, "HostName"),
                text(node, "DNSName"),
                text(node, "OS"),
                texts(node, "TailscaleIPs"),
                texts(node, "Tags"),
                node.path("Online").isBoolean() && node.path("Online").booleanValue(),
                node);
    }

    /** The first label of the DNS name ({@code n1} for {@code n1.tailnet.example.}), or the host name. */
    public String shortName() {
        return dnsName.isEmpty() ? hostName : dnsName.substring(0, dnsName.indexOf('.') < 0 ? dnsName.length() : dnsName.indexOf('.'));
    }

    static String text(JsonNode node, String field) {
        JsonNode value = node.path(field);
        return value.isString() ? value.stringValue() : "";
    }

    /** A JSON array of strings; Go's nil slice ({@code null}) and an absent field both read as empty. */
    static List<String> texts(JsonNode node, String field) {
        JsonNode value = node.path(field);
        if (!value.isArray()) {
            return List.of();
        }
        List<String> texts = new ArrayList<>();
        for (JsonNode element : value.values()) {
            texts.add(element.stringValue());
        }
        return List.copyOf(texts);
    }
}
