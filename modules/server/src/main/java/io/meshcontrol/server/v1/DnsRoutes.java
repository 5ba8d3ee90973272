package io.meshcontrol.server.v1;

import io.meshcontrol.api.DnsView;
import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.model.DnsSettings;
import io.meshcontrol.core.state.Dns;
import io.meshcontrol.server.http.Reply;
import io.meshcontrol.server.http.Routes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * {@code /api/v1/dns}: the DNS setting of {@link Dns}, the one /api/v2's DNS resources read and save too. A refusal
 * names the field it is about ({@code nameservers[1]: invalid nameserver ...}).
 */
public final class DnsRoutes {

    private final Dns dns;
    private final String baseDomain;

    /** @param baseDomain {@code dns.base_domain}, shown and never changed here */
    public DnsRoutes(Dns dns, String baseDomain) {
        this.dns = dns;
        this.baseDomain = baseDomain;
    }

    public void register(Routes routes) {
        routes.add("GET", "/api/v1/dns", request -> Reply.ok(view(dns.get(request.caller()))));
        routes.add("PUT", "/api/v1/dns", request -> {
            Caller caller = request.caller();
            caller.require(Dns.WRITE_SCOPE); // before the body is judged: a reader learns nothing from its errors
            DnsView body = request.requiredBody(DnsView.class);
            return Reply.ok(view(dns.update(caller, current -> proposed(body, current))));
        });
    }

    private DnsView view(DnsSettings s) {
        Map<String, List<DnsView.Nameserver>> split = new TreeMap<>();
        s.splitDns().forEach((domain, resolvers) -> split.put(domain, views(resolvers)));
        return new DnsView(s.magicDns(), baseDomain, s.overrideLocalDns(), views(s.nameservers()), split,
                s.searchPaths());
    }

    private static List<DnsView.Nameserver> views(List<DnsSettings.Resolver> resolvers) {
        return resolvers.stream().map(r -> new DnsView.Nameserver(r.address(), r.useWithExitNode())).toList();
    }

    /** The settings a {@code PUT} asks for: each field given replaces the one in force. */
    private DnsSettings proposed(DnsView body, DnsSettings current) {
        if (body.baseDomain() != null && !body.baseDomain().equals(baseDomain)) {
            throw MeshException.invalid("baseDomain is set in the configuration file (dns.base_domain: " + baseDomain
                    + ") and cannot be changed through the API");
        }
        List<DnsSettings.Resolver> nameservers = body.nameservers() == null ? current.nameservers()
                : resolvers("nameservers", body.nameservers());
        Map<String, List<DnsSettings.Resolver>> split = current.splitDns();
        if (body.splitDns() != null) {
            split = new LinkedHashMap<>();
            for (Map.Entry<String, List<DnsView.Nameserver>> route : body.splitDns().entrySet()) {
                String field = "splitDns[\"" + route.getKey() + "\"]";
                String domain = named("splitDns", () -> DnsSettings.domain(route.getKey()));
                if (route.getValue() == null || route.getValue().isEmpty()) {
                    throw MeshException.invalid(field + ": give at least one nameserver for the domain");
                }
                if (split.put(domain, resolvers(field, route.getValue())) != null) {
                    throw MeshException.invalid(field + ": the domain " + domain + " is given twice");
                }
            }
        }
        List<String> searchPaths = current.searchPaths();
        if (body.searchPaths() != null) {
            searchPaths = new ArrayList<>();
            for (int i = 0; i < body.searchPaths().size(); i++) {
                String path = body.searchPaths().get(i);
                searchPaths.add(named("searchPaths[" + i + "]", () -> DnsSettings.domain(path)));
            }
        }
        return new DnsSettings(body.magicDns() == null ? current.magicDns() : body.magicDns(),
                body.overrideLocalDns() == null ? current.overrideLocalDns() : body.overrideLocalDns(),
                nameservers, split, searchPaths);
    }

    private static List<DnsSettings.Resolver> resolvers(String field, List<DnsView.Nameserver> given) {
        List<DnsSettings.Resolver> resolvers = new ArrayList<>();
        for (int i = 0; i < given.size(); i++) {
            DnsView.Nameserver n = given.get(i);
            if (n == null) {
                throw MeshException.invalid(field + "[" + i + "]: a nameserver is an object with an address");
            }
            resolvers.add(named(field + "[" + i + "]",
                    () -> new DnsSettings.Resolver(n.address(), Boolean.TRUE.equals(n.useWithExitNode()))));
        }
        return resolvers;
    }

    /** Runs a check of core's, prefixing its refusal with the field it is about. */
    private static <T> T named(String field, Supplier<T> check) {
        try {
            return check.get();
        } catch (MeshException e) {
            throw new MeshException(e.reason(), field + ": " + e.getMessage());
        }
    }
}
