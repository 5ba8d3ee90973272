package io.meshcontrol.core.netmap.context;

import io.meshcontrol.core.lock.LockMapInfo;
import io.meshcontrol.core.apps.AppConnectors;
import io.meshcontrol.core.wire.ClientVersion;
import io.meshcontrol.core.wire.ControlDialPlan;
import io.meshcontrol.core.wire.DERPMap;
import io.meshcontrol.core.wire.DERPNode;
import io.meshcontrol.core.wire.DERPRegion;
import io.meshcontrol.core.wire.DNSConfig;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What every map carries besides nodes, from configuration and runtime settings.
 *
 * @param baseDomain MagicDNS suffix: node names are {@code <name>.<baseDomain>.}
 * @param dnsConfig the DNS configuration sent to every node
 * @param derpMap the relay map sent to every node (as {@link #derpMapFor} adapts it to the client)
 * @param services the network's services and the nodes that host them
 * @param apps the apps in force: connectors' capabilities, split DNS to them ({@code AppDns})
 * @param dialPlan how clients should dial this server next time ({@code control_dial_plan}), or null for no plan
 * @param latestClientVersion the latest stable client release ("1.90.9") from {@code client_updates}, or null while
 *                            it is not known (lookups off, or none succeeded yet)
 * @param httpsCertificates whether nodes may get certificates for their names ({@code https_certificates}, see
 *                          {@link CertDomains})
 * @param tailnetLock what maps say of the tailnet lock (TKAInfo), or null while it was never initialised
 */
public record MapContext(String tailnetId, String baseDomain, DNSConfig dnsConfig, DERPMap derpMap,
                         ServiceHosting services, AppConnectors apps, ControlDialPlan dialPlan, String latestClientVersion,
                         boolean httpsCertificates, LockMapInfo tailnetLock) {

    public MapContext {
        services = services == null ? ServiceHosting.NONE : services;
        apps = apps == null ? AppConnectors.NONE : apps;
    }

    /** A context without a tailnet lock. */
    public MapContext(String tailnetId, String baseDomain, DNSConfig dnsConfig, DERPMap derpMap,
            ServiceHosting services, AppConnectors apps, ControlDialPlan dialPlan, String latestClientVersion,
            boolean httpsCertificates) {
        this(tailnetId, baseDomain, dnsConfig, derpMap, services, apps, dialPlan, latestClientVersion,
                httpsCertificates, null);
    }

    /** A context without services, apps, a dial plan or a known client release. */
    public MapContext(String tailnetId, String baseDomain, DNSConfig dnsConfig, DERPMap derpMap) {
        this(tailnetId, baseDomain, dnsConfig, derpMap, ServiceHosting.NONE, AppConnectors.NONE, null, null, false);
    }

    /**
     * The first capability version whose clients pin a relay's certificate by its hash ({@code CertName:
     * "sha256-raw:<hex>"}, Tailscale 1.82). Older clients take such a name for a host name, so the certificate
     * would never match; they get the node with TLS verification off instead ({@code InsecureForTests}).
     */
    static final int PINNED_RELAY_CERTIFICATES = 115;
    private static final String PIN_PREFIX = "sha256-raw:";

    public MapContext withDnsConfig(DNSConfig dns) {
        return new MapContext(tailnetId, baseDomain, dns, derpMap, services, apps, dialPlan, latestClientVersion,
                httpsCertificates, tailnetLock);
    }

    public MapContext withDerpMap(DERPMap map) {
        return new MapContext(tailnetId, baseDomain, dnsConfig, map, services, apps, dialPlan, latestClientVersion,
                httpsCertificates, tailnetLock);
    }

    public MapContext withServices(ServiceHosting hosting) {
        return new MapContext(tailnetId, baseDomain, dnsConfig, derpMap, hosting, apps, dialPlan,
                latestClientVersion, httpsCertificates, tailnetLock);
    }

    public MapContext withApps(AppConnectors connectors) {
        return new MapContext(tailnetId, baseDomain, dnsConfig, derpMap, services, connectors, dialPlan,
                latestClientVersion, httpsCertificates, tailnetLock);
    }

    public MapContext withDialPlan(ControlDialPlan plan) {
        return new MapContext(tailnetId, baseDomain, dnsConfig, derpMap, services, apps, plan, latestClientVersion,
                httpsCertificates, tailnetLock);
    }

    public MapContext withLatestClientVersion(String version) {
        return new MapContext(tailnetId, baseDomain, dnsConfig, derpMap, services, apps, dialPlan, version,
                httpsCertificates, tailnetLock);
    }

    public MapContext withTailnetLock(LockMapInfo lock) {
        return new MapContext(tailnetId, baseDomain, dnsConfig, derpMap, services, apps, dialPlan, latestClientVersion,
                httpsCertificates, lock);
    }

    public MapContext withHttpsCertificates(boolean enabled) {
        return new MapContext(tailnetId, baseDomain, dnsConfig, derpMap, services, apps, dialPlan, latestClientVersion,
                enabled, tailnetLock);
    }

    /**
     * What a client of {@code ipnVersion} (its Hostinfo's long form, "1.80.3-t1234abcd-g...") is told about updates:
     * that it runs the latest release while none is known or it runs that release or a newer one, otherwise the
     * latest release, with a notice for its user.
     */
    public ClientVersion clientVersionFor(String ipnVersion) {
        if (latestClientVersion == null || latestClientVersion.isEmpty()) {
            return ClientVersion.latest();
        }
        String running = ipnVersion == null ? "" : ipnVersion.split("-", 2)[0];
        if (!running.isEmpty() && ReleaseVersions.compare(running, latestClientVersion) >= 0) {
            return ClientVersion.latest();
        }
        return new ClientVersion(false, latestClientVersion, false, true, "",
                "Tailscale " + latestClientVersion + " is available" + (running.isEmpty() ? "" : " (this machine runs "
                        + running + ")"));
    }

    /** The relay map for a client of {@code capVersion}. */
    public DERPMap derpMapFor(int capVersion) {
        if (derpMap == null || capVersion >= PINNED_RELAY_CERTIFICATES || derpMap.regions() == null
                || derpMap.regions().values().stream().flatMap(r -> r.nodes().stream())
                        .noneMatch(MapContext::pinned)) {
            return derpMap;
        }
        Map<Integer, DERPRegion> regions = new LinkedHashMap<>();
        derpMap.regions().forEach((id, r) -> regions.put(id, new DERPRegion(r.regionId(), r.regionCode(),
                r.regionName(), r.latitude(), r.longitude(), r.avoid(), r.noMeasureNoHome(),
                r.nodes().stream().map(MapContext::unpinned).toList())));
        return new DERPMap(derpMap.homeParams(), regions, derpMap.omitDefaultRegions());
    }

    private static boolean pinned(DERPNode node) {
        return node.certName() != null && node.certName().startsWith(PIN_PREFIX);
    }

    private static DERPNode unpinned(DERPNode n) {
        if (!pinned(n)) {
            return n;
        }
        return new DERPNode(n.name(), n.regionId(), n.hostName(), null, n.ipv4(), n.ipv6(), n.stunPort(), n.stunOnly(),
                n.derpPort(), true, n.stunTestIp(), n.canPort80());
    }
}
