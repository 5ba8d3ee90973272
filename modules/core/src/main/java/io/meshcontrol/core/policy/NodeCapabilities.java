package io.meshcontrol.core.policy;

import io.meshcontrol.core.model.Role;
import io.meshcontrol.core.wire.RawJson;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** A machine's own capabilities ({@code CapMap} of its self node): the baseline and the policy's {@code nodeAttrs}. */
final class NodeCapabilities {

    /** Lets the client run Tailscale SSH ({@code tailscale up --ssh}); the vendor gives it to every machine. */
    static final String SSH = "https://tailscale.com/cap/ssh";
    static final String IS_ADMIN = "https://tailscale.com/cap/is-admin";
    static final String IS_OWNER = "https://tailscale.com/cap/is-owner";
    static final String RANDOMIZE_CLIENT_PORT = "randomize-client-port";
    /** The vendor expands {@code funnel} into these, which the client reads for the allowed ports and warnings. */
    private static final List<String> FUNNEL = List.of("funnel", "https://tailscale.com/cap/funnel-ports?ports=443,8443,10000",
            "https://tailscale.com/cap/warn-funnel-no-https");

    /** Whether {@code capability} is one of Funnel's: the attribute, its ports or its warning. */
    static boolean isFunnel(String capability) {
        return capability.equals("funnel") || capability.startsWith("https://tailscale.com/cap/funnel-ports")
                || capability.equals("https://tailscale.com/cap/warn-funnel-no-https");
    }

    private record Compiled(BitSet targets, NodeAttr attr) {
    }

    private final List<Compiled> attrs = new ArrayList<>();
    private final NodeIndex index;
    private final boolean randomizeClientPort;

    NodeCapabilities(Policy policy, AliasResolver resolver, NodeIndex index) {
        this.index = index;
        this.randomizeClientPort = policy.randomizeClientPort();
        for (NodeAttr attr : policy.nodeAttrs()) {
            attrs.add(new Compiled(resolver.resolve(attr.target()).machines(index.size()), attr));
        }
    }

    /** Sorted by name; a capability without values maps to null (the wire's {@code "name": null}). */
    Map<String, List<RawJson>> of(int node) {
        Map<String, List<RawJson>> caps = new TreeMap<>();
        caps.put(SSH, null);
        NodeIndex.Entry entry = index.entry(node);
        Role role = entry.user() == null ? null : entry.user().role();
        if (role == Role.OWNER) {
            caps.put(IS_OWNER, null);
        }
        if (role == Role.OWNER || role == Role.ADMIN) {
            caps.put(IS_ADMIN, null);
        }
        if (randomizeClientPort) {
            caps.put(RANDOMIZE_CLIENT_PORT, null);
        }
        for (Compiled compiled : attrs) {
            if (!compiled.targets().get(node)) {
                continue;
            }
            for (String name : compiled.attr().attr()) {
                for (String expanded : name.equals("funnel") ? FUNNEL : List.of(name)) {
                    caps.putIfAbsent(expanded, null);
                }
            }
            compiled.attr().app().forEach((name, values) -> {
                List<RawJson> merged = new ArrayList<>(caps.get(name) == null ? List.of() : caps.get(name));
                merged.addAll(values);
                caps.put(name, List.copyOf(merged));
            });
        }
        return caps;
    }
}
