package io.meshcontrol.core.policy;

import io.meshcontrol.core.net.IpBlock;
import java.util.ArrayList;
import java.util.List;

/**
 * The fixed address ranges the vendor's compiler writes into filters: what {@code *} stands for as a source, and
 * what {@code autogroup:internet} stands for on an exit node. Both are the vendor's observed wire text.
 */
public final class TailnetRanges {

    /** The shared address space nodes get their IPv4 addresses from. */
    public static final IpBlock CGNAT = IpBlock.parse("100.64.0.0/10");
    /** Never handed to nodes: the vendor keeps it for its own services, and {@code *} leaves it out. */
    public static final IpBlock CGNAT_RESERVED = IpBlock.parse("100.115.92.0/23");
    /** The IPv6 range nodes get their addresses from. */
    public static final IpBlock ULA = IpBlock.parse("fd7a:115c:a1e0::/48");

    /** {@code *} as a source: every node address (before adding approved subnet routes). */
    public static final List<String> WILDCARD_SOURCES = wildcardSources();

    /** {@code autogroup:internet}: public unicast space, without private, shared and link-local ranges. */
    public static final List<IpBlock> INTERNET = internet();

    private TailnetRanges() {
    }

    /** Whether the block lies wholly in the public internet as {@link #INTERNET} draws it. */
    public static boolean inInternet(IpBlock block) {
        return INTERNET.stream().anyMatch(part -> part.contains(block));
    }

    private static List<String> wildcardSources() {
        List<String> sources = new ArrayList<>();
        CGNAT.minus(CGNAT_RESERVED).forEach(block -> sources.add(block.format()));
        sources.add(ULA.format());
        return List.copyOf(sources);
    }

    private static List<IpBlock> internet() {
        List<IpBlock> v4 = List.of(IpBlock.parse("0.0.0.0/0"));
        for (String hole : List.of("10.0.0.0/8", "100.64.0.0/10", "169.254.0.0/16", "172.16.0.0/12", "192.168.0.0/16")) {
            List<IpBlock> next = new ArrayList<>();
            IpBlock cut = IpBlock.parse(hole);
            v4.forEach(block -> next.addAll(block.minus(cut)));
            v4 = next;
        }
        List<IpBlock> all = new ArrayList<>(v4);
        all.add(IpBlock.parse("2000::/3"));
        return List.copyOf(all);
    }
}
