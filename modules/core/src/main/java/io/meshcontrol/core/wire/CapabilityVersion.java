package io.meshcontrol.core.wire;

/**
 * Capability versions ("capver"): the integer a client sends as {@code Version} in every request, raised by Tailscale
 * whenever the client learns something new about the protocol. The server reads it to decide what a client
 * understands. Each constant names its source: the history comment above {@code CurrentCapabilityVersion} in
 * {@code tailcfg/tailcfg.go} (tailscale.com v1.104.5 unless noted), or the client code that tests it.
 */
public final class CapabilityVersion {

    /** The newest version we know: tailscale v1.104 ({@code tailcfg.CurrentCapabilityVersion} = 148). */
    public static final int CURRENT = 148;

    /**
     * The oldest client we serve: v1.80 (113), the last ten minor releases as headscale counts them
     * ({@code hscontrol/capver}: {@code MinSupportedCapabilityVersion}). Older clients are refused at the Noise
     * handshake and with HTTP 400 on register and map.
     */
    public static final int MINIMUM_SUPPORTED = 113;

    /** 28: the client can talk to control over Noise (ts2021). */
    public static final int NOISE = 28;

    /** 39: the client can talk Noise over any HTTPS port, not only 443. */
    public static final int NOISE_ANY_HTTPS_PORT = 39;

    /** 44: the client understands {@code MapResponse.ControlDialPlan}. */
    public static final int CONTROL_DIAL_PLAN = 44;

    /** 49: the client understands the early payload ({@link EarlyNoise}) on a Noise connection. */
    public static final int EARLY_NOISE = 49;

    /** 65: the client understands {@code DERPMap.HomeParams} and incremental DERP map updates. */
    public static final int DERP_HOME_PARAMS = 65;

    /**
     * 68: the client has its own update routine; a streaming {@code MapRequest} ({@code Stream: true}) is read-only,
     * and the server ignores its {@code Hostinfo} and {@code Endpoints}.
     */
    public static final int STREAM_IS_READ_ONLY = 68;

    /** 73: non-Windows clients expect {@code MapResponse.ClientVersion}. */
    public static final int CLIENT_VERSION_EXPECTED = 73;

    /** 74: the client understands {@code Node.CapMap} (node attributes with values). */
    public static final int NODE_CAP_MAP = 74;

    /** 81: the client understands {@code MapResponse.PacketFilters} (named, incremental filters). */
    public static final int PACKET_FILTERS = 81;

    /** 89: the client ignores {@code PeerChange.Capabilities} being removed; send {@code CapMap} instead. */
    public static final int PEER_CHANGE_CAP_MAP_ONLY = 89;

    /** 109: the client supports {@code cap:} sources in {@code FilterRule.SrcIPs} (SrcCaps). */
    public static final int FILTER_SRC_CAPS = 109;

    /** 111: the client accepts {@code Node.HomeDERP}; older clients need the {@code DERP} string "127.3.3.40:N". */
    public static final int HOME_DERP = 111;

    /** 112: the client reads a missing {@code Node.AllowedIPs} as "same as Addresses". */
    public static final int ALLOWED_IPS_DEFAULT_TO_ADDRESSES = 112;

    /** 115: the client understands {@code DERPRegion.NoMeasureNoHome}. */
    public static final int DERP_NO_MEASURE_NO_HOME = 115;

    /** 117: the client understands {@code MapResponse.DisplayMessages}. */
    public static final int DISPLAY_MESSAGES = 117;

    /** 122: the client reports its chosen exit node in {@code Hostinfo.ExitNodeID}. */
    public static final int HOSTINFO_EXIT_NODE_ID = 122;

    /** 130: the client may send a hardware attestation key and signature in {@code MapRequest}. */
    public static final int HARDWARE_ATTESTATION = 130;

    /** 131: the client follows the {@code default-auto-update} node attribute (not the MapResponse field). */
    public static final int DEFAULT_AUTO_UPDATE_ATTRIBUTE = 131;

    /** 137: the client backs off on HTTP 429 from {@code /machine/register}, honouring {@code Retry-After}. */
    public static final int REGISTER_RATE_LIMIT = 137;

    /** 147: the client honours 429 and 503 with {@code Retry-After} on every {@code /machine/} endpoint. */
    public static final int MACHINE_RETRY_AFTER = 147;

    /** 148: the client understands {@code Node.StableTailnetID} on its self node (the tailnet's id). */
    public static final int STABLE_TAILNET_ID = 148;

    private CapabilityVersion() {
    }

    /** Whether a client of this version may use this server. */
    public static boolean isSupported(int version) {
        return version >= MINIMUM_SUPPORTED;
    }
}
