package io.meshcontrol.interop;

import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A small view of {@code tailscale status --json} (ipnstate.Status).
 *
 * @param backendState the daemon's state machine position
 * @param version      the daemon's version ({@code Version}, e.g. {@code 1.80.3})
 * @param authUrl      the interactive login URL while one is pending ({@code AuthURL}), else empty
 * @param tailscaleIps this node's addresses; empty before login
 * @param self         this node ({@code Self})
 * @param peers        the peers by node key ({@code Peer}, {@code nodekey:<hex>} to status); empty when none
 * @param health       health warnings as sentences ({@code Health})
 * @param magicDnsSuffix the tailnet's MagicDNS suffix ({@code CurrentTailnet.MagicDNSSuffix}), empty before login
 * @param json         the whole document
 */
public record NodeStatus(BackendState backendState, String version, String authUrl, List<String> tailscaleIps,
        PeerStatus self, Map<String, PeerStatus> peers, List<String> health, String magicDnsSuffix, JsonNode json) {

    static NodeStatus parse(String json) {
        JsonNode root = JsonMapper.shared().readTree(json);
        Map<String, PeerStatus> peers = new LinkedHashMap<>();
        if (root.path("Peer").isObject()) {
            for (Map.Entry<String, JsonNode> peer : root.path("Peer").properties()) {
                peers.put(peer.getKey(), PeerStatus.from(peer.getValue()));
            }
        }
        return new NodeStatus(
                BackendState.parse(PeerStatus.text(root, "BackendState")),
                PeerStatus.text(root, "Version"),
                PeerStatus.text(root, "AuthURL"),
                PeerStatus.texts(root, "TailscaleIPs"),
                PeerStatus.from(root.path("Self")),
                Collections.unmodifiableMap(peers),
                PeerStatus.texts(root, "Health"),
                PeerStatus.text(root.path("CurrentTailnet"), "MagicDNSSuffix"),
                root);
    }

    public boolean isRunning() {
        return backendState == BackendState.Running;
    }

    public Collection<PeerStatus> peerList() {
        return peers.values();
    }

    /** The peer whose host name or first DNS label is {@code name}. */
    public Optional<PeerStatus> peer(String name) {
        return peers.values().stream()
                .filter(p -> p.hostName().equals(name) || p.shortName().equals(name))
                .findFirst();
    }

    /** One line for failure messages. */
    public String summary() {
        StringBuilder line = new StringBuilder()
                .append("BackendState=").append(backendState)
                .append(" Version=").append(version)
                .append(" Self=").append(self.hostName()).append(' ').append(self.tailscaleIps());
        if (!authUrl.isEmpty()) {
            line.append(" AuthURL=").append(authUrl);
        }
        line.append(" Peers=[");
        peers.values().forEach(p -> line.append(' ').append(p.shortName()).append(p.online() ? "(online)" : "(offline)"));
        return line.append(" ] Health=").append(health).toString();
    }
}
