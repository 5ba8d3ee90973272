package io.meshcontrol.core.apps;

import io.meshcontrol.core.model.App;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.net.IpAddress;
import io.meshcontrol.core.net.IpAddressPort;
import io.meshcontrol.core.net.IpPrefix;
import io.meshcontrol.core.net.PublicAddresses;
import io.meshcontrol.core.routes.RoutePrefixes;
import io.meshcontrol.core.wire.Hostinfo;
import io.meshcontrol.core.wire.RawJson;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The apps in force applied to machines: which machines act as an app's connectors, the capability that tells a
 * connector its apps, which of its advertised routes the apps approve, and which connector a machine skips because
 * both are behind the same public address. Immutable; one per saved set of apps.
 */
public final class AppConnectors {

    /** The node capability the vendor's client reads its app definitions from ({@code appctype.AppConnectorAttr}). */
    public static final String CAPABILITY = "tailscale.com/app-connectors";
    /** Makes the client keep learned routes and withdraw those of a removed domain ({@code nodecap.StoreAppCRoutes}). */
    public static final String STORE_ROUTES = "store-appc-routes";
    public static final AppConnectors NONE = new AppConnectors(List.of());

    private static final JsonMapper JSON = JsonMapper.builder().build();
    /**
     * Addresses that are not globally reachable (private, shared, loopback, link-local, documentation and benchmark
     * ranges): a static route inside one stays routed through its connector, and no endpoint in one is a public
     * address.
     */
    private final List<App> apps;

    private AppConnectors(List<App> apps) {
        this.apps = List.copyOf(apps);
    }

    public static AppConnectors of(List<App> apps) {
        return apps.isEmpty() ? NONE : new AppConnectors(apps);
    }

    public List<App> apps() {
        return apps;
    }

    public boolean isEmpty() {
        return apps.isEmpty();
    }

    /** Whether the machine runs the connector ({@code --advertise-connector}): only tagged machines count. */
    public static boolean runsConnector(Node node) {
        // The cheap test first: most machines are not connectors (clients send "AppConnector":false), and their
        // Hostinfo need not be parsed.
        if (!node.isTagged() || !saysTrue(node.hostinfo(), "\"AppConnector\"")) {
            return false;
        }
        return Boolean.TRUE.equals(Hostinfo.parse(node.hostinfo()).fields().appConnector());
    }

    /** Whether {@code json} has {@code key} followed by {@code : true} (a pre-check: the caller parses to be sure). */
    private static boolean saysTrue(String json, String key) {
        if (json == null) {
            return false;
        }
        for (int at = json.indexOf(key); at >= 0; at = json.indexOf(key, at + 1)) {
            String rest = json.substring(at + key.length()).stripLeading();
            if (rest.startsWith(":") && rest.substring(1).stripLeading().startsWith("true")) {
                return true;
            }
        }
        return false;
    }

    /** The apps the machine acts for: it runs the connector and one of its tags (or any tag) is a selector. */
    public List<App> appsOf(Node node) {
        if (apps.isEmpty() || !runsConnector(node)) {
            return List.of();
        }
        return apps.stream().filter(app -> app.servedBy(node.tags())).toList();
    }

    /**
     * What the machine's self {@code CapMap} gains: its apps under {@link #CAPABILITY} (only the entries it acts for,
     * a wildcard domain sent with its base domain too) and {@link #STORE_ROUTES}; nothing for other machines.
     */
    public Map<String, List<RawJson>> capabilities(Node node) {
        List<App> own = appsOf(node);
        if (own.isEmpty()) {
            return Map.of();
        }
        List<RawJson> entries = new ArrayList<>();
        for (App app : own) {
            ObjectNode entry = JSON.createObjectNode();
            entry.put("name", app.name());
            domainsForConnector(app).forEach(entry.putArray("domains")::add);
            app.routes().forEach(entry.putArray("routes")::add);
            app.connectors().forEach(entry.putArray("connectors")::add);
            entries.add(RawJson.of(entry));
        }
        Map<String, List<RawJson>> caps = new TreeMap<>();
        caps.put(CAPABILITY, List.copyOf(entries));
        caps.put(STORE_ROUTES, null);
        return caps;
    }

    /** {@code capMap} with the machine's app capabilities merged in (entries the policy gave under the same name kept). */
    public Map<String, List<RawJson>> withCapabilities(Node node, Map<String, List<RawJson>> capMap) {
        Map<String, List<RawJson>> own = capabilities(node);
        if (own.isEmpty()) {
            return capMap;
        }
        Map<String, List<RawJson>> merged = new TreeMap<>(capMap);
        own.forEach((name, values) -> {
            List<RawJson> before = merged.get(name);
            if (values == null) {
                merged.putIfAbsent(name, null);
            } else if (before == null) {
                merged.put(name, values);
            } else {
                List<RawJson> both = new ArrayList<>(before);
                both.addAll(values);
                merged.put(name, List.copyOf(both));
            }
        });
        return merged;
    }

    /**
     * The advertised routes the machine's apps approve: single addresses (what a connector learns from DNS answers)
     * and prefixes inside an app's static routes. Broader subnets and exit routes are left to an administrator.
     */
    public Set<IpPrefix> approvable(Node node) {
        List<App> own = appsOf(node);
        if (own.isEmpty()) {
            return Set.of();
        }
        List<IpPrefix> staticRoutes = staticRoutes(own);
        Set<IpPrefix> approvable = new LinkedHashSet<>();
        for (IpPrefix route : node.advertisedRoutes()) {
            if (RoutePrefixes.isExit(route)) {
                continue;
            }
            if (isSingleAddress(route) || staticRoutes.stream().anyMatch(s -> s.contains(route))) {
                approvable.add(route);
            }
        }
        return approvable;
    }

    /**
     * The connector's approved routes that {@code viewer} does not get because both are behind the same public IPv4
     * address: its learned routes (single addresses that are not static routes themselves) and the public prefixes
     * inside its apps' static routes. Private prefixes of static routes stay routed through it. Empty when the
     * addresses differ or either has none.
     */
    public Set<IpPrefix> skippedRoutes(Node viewer, Node connector) {
        if (!sharesPublicAddress(viewer, connector)) {
            return Set.of();
        }
        List<IpPrefix> staticRoutes = staticRoutes(appsOf(connector));
        Set<IpPrefix> skipped = new LinkedHashSet<>();
        for (IpPrefix route : connector.approvedRoutes()) {
            if (RoutePrefixes.isExit(route)) {
                continue;
            }
            boolean learned = isSingleAddress(route) && !staticRoutes.contains(route);
            boolean inStatic = staticRoutes.stream().anyMatch(s -> s.contains(route));
            if (learned || (inStatic && !isPrivate(route))) {
                skipped.add(route);
            }
        }
        return skipped;
    }

    /** Whether the two machines report the same public IPv4 address (and the connector acts for some app). */
    public boolean sharesPublicAddress(Node viewer, Node connector) {
        if (apps.isEmpty()) {
            return false;
        }
        Optional<IpAddress> mine = publicIpv4(viewer);
        return mine.isPresent() && mine.equals(publicIpv4(connector)) && !appsOf(connector).isEmpty();
    }

    /** The first public IPv4 address among the machine's reported endpoints. */
    public static Optional<IpAddress> publicIpv4(Node node) {
        for (String endpoint : node.endpoints()) {
            IpAddress address;
            try {
                address = IpAddressPort.parse(endpoint).address();
            } catch (IllegalArgumentException e) {
                continue;
            }
            if (address.isIpv4() && !isPrivate(IpPrefix.single(address))) {
                return Optional.of(address);
            }
        }
        return Optional.empty();
    }

    /**
     * The DNS suffixes of an app's domains, as split DNS keys: a wildcard {@code *.example.com} is
     * {@code example.com}, which covers the base domain and every name under it.
     */
    public static List<String> dnsSuffixes(App app) {
        Set<String> suffixes = new LinkedHashSet<>();
        for (String domain : app.domains()) {
            suffixes.add(domain.startsWith("*.") ? domain.substring(2) : domain);
        }
        return List.copyOf(suffixes);
    }

    /** The client treats {@code *.x} as names under {@code x} only; the base domain is sent beside it. */
    private static List<String> domainsForConnector(App app) {
        Set<String> domains = new LinkedHashSet<>();
        for (String domain : app.domains()) {
            if (domain.startsWith("*.")) {
                domains.add(domain.substring(2));
            }
            domains.add(domain);
        }
        return List.copyOf(domains);
    }

    private static List<IpPrefix> staticRoutes(List<App> apps) {
        return apps.stream().flatMap(app -> app.routes().stream()).map(IpPrefix::parse).toList();
    }

    private static boolean isSingleAddress(IpPrefix route) {
        return route.bits() == route.address().bitLength();
    }

    private static boolean isPrivate(IpPrefix route) {
        return !PublicAddresses.isPublic(route);
    }
}
