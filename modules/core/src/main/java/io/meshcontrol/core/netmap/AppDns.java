package io.meshcontrol.core.netmap;

import io.meshcontrol.core.apps.AppConnectors;
import io.meshcontrol.core.model.App;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.state.NetworkSnapshot;
import io.meshcontrol.core.state.NetworkSnapshot.NodeEntry;
import io.meshcontrol.core.wire.DNSConfig;
import io.meshcontrol.core.wire.DNSResolver;
import io.meshcontrol.core.wire.Hostinfo;
import io.meshcontrol.core.wire.Service;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The apps in force as one machine's map shows them: split DNS for every app domain pointing at the DNS endpoint
 * (PeerAPI {@code /dns-query}) of the connectors it sees, online ones first; none for the apps it is a connector of
 * itself, none from a connector behind its own public address, none where the DNS settings already route the domain.
 * The connectors of a snapshot are found once and shared by every map built from it.
 */
public final class AppDns {

    static final AppDns NONE = new AppDns(AppConnectors.NONE);

    private final AppConnectors apps;
    private volatile Found found;

    /** A snapshot's connectors, online first, then by id. */
    private record Found(NetworkSnapshot snapshot, List<Connector> connectors) {
    }

    private record Connector(NodeEntry entry, List<App> apps, String dnsUrl) {
    }

    private AppDns(AppConnectors apps) {
        this.apps = apps;
    }

    /** The last one made: its connectors are kept between maps while the apps in force stay the same. */
    private static volatile AppDns last = NONE;

    /** The split DNS of {@code apps}, with what it found in the last snapshot it was asked about. */
    static AppDns of(AppConnectors apps) {
        AppDns known = last;
        if (known.apps == apps) {
            return known;
        }
        AppDns made = apps.isEmpty() ? NONE : new AppDns(apps);
        last = made;
        return made;
    }

    public AppConnectors connectors() {
        return apps;
    }

    /** The DNS configuration for {@code self}: {@code in}'s context's, with the split DNS of the apps it may use. */
    DNSConfig dnsConfig(Node self, MapInputs in) {
        DNSConfig base = in.context().dnsConfig();
        if (apps.isEmpty()) {
            return base;
        }
        List<Connector> connectors = connectorsIn(in.snapshot());
        if (connectors.isEmpty()) {
            return base;
        }
        Set<String> routed = base.routes().keySet().stream().map(AppDns::suffix).collect(Collectors.toSet());
        List<App> own = apps.appsOf(self);
        Map<String, List<DNSResolver>> added = new LinkedHashMap<>();
        for (App app : apps.apps()) {
            if (own.contains(app)) {
                continue; // a connector resolves its own apps' domains itself
            }
            List<DNSResolver> resolvers = new ArrayList<>();
            for (Connector connector : connectors) {
                Node node = connector.entry().node();
                if (connector.apps().contains(app) && MapContents.isVisible(self, node, in.access())
                        && !apps.sharesPublicAddress(self, node)) {
                    resolvers.add(DNSResolver.at(connector.dnsUrl()));
                }
            }
            if (resolvers.isEmpty()) {
                continue;
            }
            for (String suffix : AppConnectors.dnsSuffixes(app)) {
                if (routed.contains(suffix)) {
                    continue; // the administrator's own split DNS rule for the domain wins
                }
                List<DNSResolver> all = added.computeIfAbsent(suffix, s -> new ArrayList<>());
                resolvers.stream().filter(r -> !all.contains(r)).forEach(all::add);
            }
        }
        if (added.isEmpty()) {
            return base;
        }
        Map<String, List<DNSResolver>> routes = new LinkedHashMap<>(base.routes());
        added.forEach((suffix, resolvers) -> routes.put(suffix, List.copyOf(resolvers)));
        return new DNSConfig(base.resolvers(), routes, base.fallbackResolvers(), base.domains(), base.proxied(),
                base.nameservers(), base.certDomains(), base.extraRecords(), base.exitNodeFilteredSet(),
                base.tempCorpIssue13969());
    }

    private List<Connector> connectorsIn(NetworkSnapshot snapshot) {
        Found last = found;
        if (last != null && last.snapshot() == snapshot) {
            return last.connectors();
        }
        List<Connector> connectors = new ArrayList<>();
        for (NodeEntry entry : snapshot.entries().values()) {
            List<App> served = apps.appsOf(entry.node());
            String url = served.isEmpty() ? null : dnsUrl(entry.node());
            if (url != null) {
                connectors.add(new Connector(entry, served, url));
            }
        }
        connectors.sort(Comparator.comparing((Connector c) -> !c.entry().online())
                .thenComparingLong(c -> c.entry().node().id()));
        found = new Found(snapshot, List.copyOf(connectors));
        return connectors;
    }

    /** The connector's DNS-over-HTTP endpoint on its PeerAPI, or null when it reports no PeerAPI port. */
    private static String dnsUrl(Node node) {
        for (Service service : Hostinfo.parse(node.hostinfo()).fields().services()) {
            if ("peerapi4".equals(service.proto()) && service.port() > 0) {
                return "http://" + node.ipv4() + ":" + service.port() + "/dns-query";
            }
        }
        return null;
    }

    private static String suffix(String key) {
        String lower = key.toLowerCase(Locale.ROOT);
        return lower.endsWith(".") ? lower.substring(0, lower.length() - 1) : lower;
    }
}
