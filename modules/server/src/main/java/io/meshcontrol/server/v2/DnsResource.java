package io.meshcontrol.server.v2;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.model.DnsSettings;
import io.meshcontrol.core.state.Dns;
import io.meshcontrol.server.http.ApiRequest;
import io.meshcontrol.server.http.Reply;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.JsonNode;

/**
 * DNS: nameservers, search paths, split DNS, preferences and the whole configuration, all one {@link Dns} setting.
 * MagicDNS is the configuration file's: sending the value in force succeeds, another one is refused with 400.
 * Resolver lists are answered in the order given: the Terraform provider's nameservers are a list, so another order
 * would show as a change in every plan. Every write changes the setting in force under the writer ({@link Dns#update}),
 * so Terraform's resources, applied in parallel, never lose each other's changes.
 */
final class DnsResource {

    /**
     * Split DNS as the vendor's clients send and read it: each domain (data, so a map) to its resolver addresses; a
     * body may map a domain to null to remove it.
     */
    private static final TypeReference<Map<String, List<String>>> SPLIT_DNS_TYPE = new TypeReference<>() {
    };
    private static final java.lang.reflect.Type SPLIT_DNS = SPLIT_DNS_TYPE.getType();

    private final Dns dns;

    DnsResource(Dns dns) {
        this.dns = dns;
    }

    void register(V2Routes v2) {
        v2.tailnet("GET", "/dns/nameservers", request -> Reply.ok(nameservers(dns.get(request.caller()))))
                .doc(Dns.READ_SCOPE, "{\"dns\":[...]}: the global nameservers")
                .answers(Answers.Nameservers.class);
        v2.tailnet("POST", "/dns/nameservers", request -> {
            List<String> addresses = DeviceResource.required(request.requiredBody(Bodies.Nameservers.class).dns(), "dns");
            return Reply.ok(nameservers(dns.update(request.caller(), current -> current.withNameservers(
                    addresses.stream().map(a -> new DnsSettings.Resolver(a, usedWithExitNode(current, a))).toList()))));
        }).doc(Dns.WRITE_SCOPE, "Replaces the global nameservers")
                .takes(Bodies.Nameservers.class).answers(Answers.Nameservers.class);
        v2.tailnet("GET", "/dns/preferences", request -> Reply.ok(new Answers.MagicDns(dns.get(request.caller()).magicDns())))
                .doc(Dns.READ_SCOPE, "{\"magicDNS\":bool}").answers(Answers.MagicDns.class);
        v2.tailnet("POST", "/dns/preferences", request -> {
            Boolean magicDns = DeviceResource.required(request.requiredBody(Bodies.Preferences.class).magicDns(),
                    "magicDNS");
            DnsSettings saved = dns.update(request.caller(), current -> new DnsSettings(magicDns,
                    current.overrideLocalDns(), current.nameservers(), current.splitDns(), current.searchPaths()));
            return Reply.ok(new Answers.MagicDns(saved.magicDns()));
        }).doc(Dns.WRITE_SCOPE, "Partial: MagicDNS is set in the configuration file (dns.magic_dns); repeating the "
                + "value in force succeeds, changing it is refused with 400")
                .takes(Bodies.Preferences.class).answers(Answers.MagicDns.class);
        v2.tailnet("GET", "/dns/searchpaths", request -> Reply.ok(new Answers.SearchPaths(
                dns.get(request.caller()).searchPaths())))
                .doc(Dns.READ_SCOPE, "{\"searchPaths\":[...]}").answers(Answers.SearchPaths.class);
        v2.tailnet("POST", "/dns/searchpaths", request -> {
            List<String> paths = DeviceResource.required(request.requiredBody(Bodies.SearchPaths.class).searchPaths(),
                    "searchPaths");
            return Reply.ok(new Answers.SearchPaths(
                    dns.update(request.caller(), current -> current.withSearchPaths(paths)).searchPaths()));
        }).doc(Dns.WRITE_SCOPE, "Replaces the search paths")
                .takes(Bodies.SearchPaths.class).answers(Answers.SearchPaths.class);
        v2.tailnet("GET", "/dns/split-dns", request -> Reply.ok(split(dns.get(request.caller()))))
                .doc(Dns.READ_SCOPE, "{\"<domain>\":[\"<resolver>\",...]}").answers(SPLIT_DNS);
        v2.tailnet("PATCH", "/dns/split-dns", request -> {
            Map<String, List<String>> patch = splitBody(request);
            return Reply.ok(split(dns.update(request.caller(), current -> {
                Map<String, List<DnsSettings.Resolver>> merged = new LinkedHashMap<>(current.splitDns());
                patch.forEach((domain, servers) -> {
                    if (servers == null || servers.isEmpty()) {
                        merged.remove(DnsSettings.domain(domain));
                    } else {
                        merged.put(DnsSettings.domain(domain), resolvers(current, servers));
                    }
                });
                return current.withSplitDns(merged);
            })));
        }).doc(Dns.WRITE_SCOPE, "Merges: a domain with resolvers is set, with [] or null removed, others kept; "
                + "answers the resulting map").takes(SPLIT_DNS).answers(SPLIT_DNS);
        v2.tailnet("PUT", "/dns/split-dns", request -> {
            Map<String, List<String>> all = splitBody(request);
            return Reply.ok(split(dns.update(request.caller(), current -> {
                Map<String, List<DnsSettings.Resolver>> replaced = new LinkedHashMap<>();
                all.forEach((domain, servers) -> {
                    if (servers != null && !servers.isEmpty()) {
                        replaced.put(domain, resolvers(current, servers));
                    }
                });
                return current.withSplitDns(replaced);
            })));
        }).doc(Dns.WRITE_SCOPE, "Replaces all split DNS ({} clears it)").takes(SPLIT_DNS).answers(SPLIT_DNS);
        v2.tailnet("GET", "/dns/configuration", request -> Reply.ok(configuration(dns.get(request.caller()))))
                .doc(Dns.READ_SCOPE, "The whole DNS configuration: nameservers (with useWithExitNode), splitDNS, "
                        + "searchPaths, preferences (overrideLocalDNS, magicDNS)")
                .answers(Answers.DnsConfiguration.class);
        v2.tailnet("POST", "/dns/configuration", request -> {
            Bodies.DnsConfiguration body = request.requiredBody(Bodies.DnsConfiguration.class);
            Bodies.DnsPreferences preferences = body.preferences() == null
                    ? new Bodies.DnsPreferences(null, null) : body.preferences();
            Map<String, List<DnsSettings.Resolver>> split = new LinkedHashMap<>();
            if (body.splitDns() != null) {
                body.splitDns().forEach((domain, servers) -> {
                    if (servers != null && !servers.isEmpty()) {
                        split.put(domain, servers.stream().map(DnsResource::resolver).toList());
                    }
                });
            }
            DnsSettings saved = dns.update(request.caller(), replaced -> new DnsSettings(
                    Boolean.TRUE.equals(preferences.magicDns()), Boolean.TRUE.equals(preferences.overrideLocalDns()),
                    body.nameservers() == null ? List.of()
                            : body.nameservers().stream().map(DnsResource::resolver).toList(),
                    split, body.searchPaths() == null ? List.of() : body.searchPaths()));
            return Reply.ok(configuration(saved));
        }).doc(Dns.WRITE_SCOPE, "Partial: replaces the whole configuration (absent means empty or false), "
                + "useWithExitNode and overrideLocalDNS applied; a magicDNS other than the configuration file's is "
                + "refused with 400")
                .takes(Bodies.DnsConfiguration.class).answers(Answers.DnsConfiguration.class);
    }

    /**
     * A split DNS body: each domain to a list of resolver addresses, or to null, which the vendor's clients send to
     * remove a domain (so it is read as a tree: the strict mapper refuses nulls inside collections).
     */
    private static Map<String, List<String>> splitBody(ApiRequest request) {
        JsonNode body = request.requiredBody(JsonNode.class);
        if (!body.isObject()) {
            throw MeshException.invalid("split DNS is an object mapping each domain to a list of resolver addresses");
        }
        Map<String, List<String>> split = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> entry : body.properties()) {
            JsonNode servers = entry.getValue();
            if (servers.isNull()) {
                split.put(entry.getKey(), null);
                continue;
            }
            List<String> addresses = new ArrayList<>();
            if (servers.isArray()) {
                servers.forEach(server -> addresses.add(server.isString() ? server.asString() : null));
            }
            if (!servers.isArray() || addresses.contains(null)) {
                throw MeshException.invalid("split DNS maps each domain to a list of resolver addresses; \""
                        + entry.getKey() + "\" does not");
            }
            split.put(entry.getKey(), addresses);
        }
        return split;
    }

    private static List<DnsSettings.Resolver> resolvers(DnsSettings current, List<String> addresses) {
        return addresses.stream().map(a -> new DnsSettings.Resolver(a, usedWithExitNode(current, a))).toList();
    }

    /** A resolver named again keeps its exit-node flag: the older resources carry addresses only. */
    private static boolean usedWithExitNode(DnsSettings current, String address) {
        return current.nameservers().stream().anyMatch(r -> r.address().equals(address) && r.useWithExitNode());
    }

    private static DnsSettings.Resolver resolver(Bodies.Resolver r) {
        return new DnsSettings.Resolver(r.address(), Boolean.TRUE.equals(r.useWithExitNode()));
    }

    private static Answers.Nameservers nameservers(DnsSettings settings) {
        return new Answers.Nameservers(settings.nameservers().stream().map(DnsSettings.Resolver::address).toList());
    }

    private static Map<String, List<String>> split(DnsSettings settings) {
        Map<String, List<String>> split = new TreeMap<>();
        settings.splitDns().forEach((domain, resolvers) ->
                split.put(domain, resolvers.stream().map(DnsSettings.Resolver::address).toList()));
        return split;
    }

    private static Answers.DnsConfiguration configuration(DnsSettings settings) {
        Map<String, List<Answers.Resolver>> split = new TreeMap<>();
        settings.splitDns().forEach((domain, resolvers) ->
                split.put(domain, resolvers.stream().map(DnsResource::resolverView).toList()));
        return new Answers.DnsConfiguration(settings.nameservers().stream().map(DnsResource::resolverView).toList(),
                split, settings.searchPaths(),
                new Answers.DnsPreferences(settings.overrideLocalDns(), settings.magicDns()));
    }

    private static Answers.Resolver resolverView(DnsSettings.Resolver r) {
        return new Answers.Resolver(r.address(), r.useWithExitNode());
    }
}