package io.meshcontrol.core.netmap;

import io.meshcontrol.core.netmap.context.MapContext;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.routes.RouteTable;
import io.meshcontrol.core.wire.DNSConfig;
import io.meshcontrol.core.wire.Hostinfo;
import io.meshcontrol.core.wire.RawJson;
import io.meshcontrol.core.wire.WireJson;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/** What a map tells a node about itself: its own node with its capabilities, its DNS, its version and region. */
final class SelfView {

    /** The node capability that lets a client use the tailnet lock. */
    static final String TAILNET_LOCK_CAPABILITY = "https://tailscale.com/cap/tailnet-lock";

    private SelfView() {
    }

    /** The self node with its capabilities. */
    static io.meshcontrol.core.wire.Node node(Node self, MapInputs in, int capVersion) {
        return WireNodes.self(self, in, capVersion).toBuilder().capMap(capabilities(self, in)).build();
    }

    /**
     * The node's own capabilities: the policy's ({@code nodeAttrs}), those the global exit nodes give everyone,
     * {@code https} when it may get certificates, a connector's apps and the services it hosts.
     */
    static Map<String, List<RawJson>> capabilities(Node self, MapInputs in) {
        Map<String, List<RawJson>> caps = in.access().capMap(self);
        List<String> steering = in.routes().exits().selfAttributes();
        if (!steering.isEmpty()) {
            Map<String, List<RawJson>> withSteering = new TreeMap<>(caps);
            steering.forEach(name -> withSteering.putIfAbsent(name, null));
            caps = withSteering;
        }
        // Every node may take part in the tailnet lock: without this capability a client neither initialises lock nor
        // follows the authority's head.
        Map<String, List<RawJson>> withLock = new TreeMap<>(caps);
        withLock.putIfAbsent(TAILNET_LOCK_CAPABILITY, null);
        caps = withLock;
        MapContext context = in.context();
        if (!CertDomains.of(self, context).isEmpty()) {
            Map<String, List<RawJson>> withHttps = new TreeMap<>(caps);
            withHttps.putIfAbsent(CertDomains.HTTPS_CAPABILITY, null);
            caps = withHttps;
        }
        return context.services().capabilities(self, context.apps().withCapabilities(self, caps));
    }

    /** The node sent before with {@code capMap} as its capabilities. */
    static io.meshcontrol.core.wire.Node withCapabilities(io.meshcontrol.core.wire.Node sent,
            Map<String, List<RawJson>> capMap) {
        return capMap.equals(sent.capMap()) ? sent : sent.toBuilder().capMap(capMap).build();
    }

    /** The node's DNS settings: the network's, split DNS to the app connectors it may use, its certificate names. */
    static DNSConfig dnsConfig(Node self, MapInputs in) {
        return CertDomains.addedTo(AppDns.of(in.context().apps()).dnsConfig(self, in), self, in.context());
    }

    /** The viewer's home region when routes are steered by region (else no need to read its Hostinfo). */
    static int region(Node self, MapInputs in) {
        return in.routes().steersByRegion() ? Hostinfo.homeRegion(self.hostinfo()) : RouteTable.NO_REGION;
    }

    /** The client's version as its Hostinfo states it ({@code IPNVersion}), or null when it does not. */
    static String ipnVersion(Node self) {
        if (self.hostinfo() == null || self.hostinfo().isEmpty()) {
            return null;
        }
        try {
            JsonNode version = WireJson.mapper().readTree(self.hostinfo()).get("IPNVersion");
            return version == null || !version.isString() ? null : version.asString();
        } catch (JacksonException e) {
            return null;
        }
    }
}
