package io.meshcontrol.gui.machines;

import io.meshcontrol.api.NodeView;

/** What a machine's client reports about itself, as the table and the detail pane say it. */
public final class MachineFacts {

    /** Marks a client older than the latest release the server knows of. */
    public static final String UPDATE_MARK = "⬆ update available";

    private MachineFacts() {
    }

    /** "linux 6.1.0" / "windows"; empty until the client reported it. */
    public static String os(NodeView node) {
        NodeView.ClientView client = node.client();
        if (client == null || client.os() == null || client.os().isBlank()) {
            return "";
        }
        return client.osVersion() == null || client.osVersion().isBlank() ? client.os()
                : client.os() + " " + client.osVersion();
    }

    /** "1.80.3  ⬆ update available (1.102.5)" when an update is known; the version alone otherwise. */
    public static String clientVersion(NodeView node) {
        NodeView.ClientView client = node.client();
        if (client == null || client.version() == null) {
            return "";
        }
        return Boolean.TRUE.equals(client.updateAvailable())
                ? client.version() + "  " + UPDATE_MARK + " (" + client.latestVersion() + ")" : client.version();
    }

    /**
     * Online or offline, and "relayed" when its client says UDP does not work where it is; the server cannot tell a
     * direct connection (docs/api.md, "What the server knows of a machine"), so it says nothing more.
     */
    public static String connection(NodeView node) {
        if (!node.online()) {
            return "○ offline";
        }
        boolean relayed = node.client() != null && "relayed".equals(node.client().connection());
        return relayed ? "● online, relayed" : "● online";
    }

    public static String homeRelay(NodeView node) {
        NodeView.ClientView client = node.client();
        if (client == null || client.homeRegion() == 0) {
            return "";
        }
        return client.homeRegionName() == null ? "region " + client.homeRegion()
                : client.homeRegionName() + " (" + client.homeRegion() + ")";
    }

    public static String endpoints(NodeView node) {
        return node.client() == null || node.client().endpoints() == null ? ""
                : String.join("  ", node.client().endpoints());
    }
}
