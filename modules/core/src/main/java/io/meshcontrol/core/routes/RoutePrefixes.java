package io.meshcontrol.core.routes;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.net.IpPrefix;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;

/** Route prefixes: the two exit routes, containment, the order clients use, and checking what people type. */
public final class RoutePrefixes {

    public static final IpPrefix EXIT_V4 = IpPrefix.parse("0.0.0.0/0");
    public static final IpPrefix EXIT_V6 = IpPrefix.parse("::/0");
    public static final List<IpPrefix> EXIT_ROUTES = List.of(EXIT_V4, EXIT_V6);

    /** Go's {@code netip.Prefix.Compare}: IPv4 before IPv6, then shorter prefixes first, then by address. */
    public static final Comparator<IpPrefix> ORDER = Comparator
            .comparingInt((IpPrefix p) -> p.address().bitLength())
            .thenComparingInt(IpPrefix::bits)
            .thenComparing(p -> p.address().bytes(), java.util.Arrays::compareUnsigned);

    private RoutePrefixes() {
    }

    public static boolean isExit(IpPrefix prefix) {
        return prefix.equals(EXIT_V4) || prefix.equals(EXIT_V6);
    }

    /** Distinct and in {@link #ORDER}. */
    public static List<IpPrefix> sorted(Collection<IpPrefix> prefixes) {
        TreeSet<IpPrefix> set = new TreeSet<>(ORDER);
        set.addAll(prefixes);
        return List.copyOf(set);
    }

    /** Either exit route stands for both: an exit node routes both families. */
    public static List<IpPrefix> withExitPair(Collection<IpPrefix> prefixes) {
        TreeSet<IpPrefix> set = new TreeSet<>(ORDER);
        set.addAll(prefixes);
        if (prefixes.stream().anyMatch(RoutePrefixes::isExit)) {
            set.addAll(EXIT_ROUTES);
        }
        return List.copyOf(set);
    }

    /**
     * Routes as a person or API client gives them, checked: each a CIDR prefix without host bits (clients
     * advertise them that way, and an approval must match exactly); the refusal names the first bad one.
     */
    public static List<IpPrefix> parse(Collection<String> texts) {
        TreeSet<IpPrefix> prefixes = new TreeSet<>(ORDER);
        for (String text : texts) {
            prefixes.add(parseOne(text));
        }
        return List.copyOf(prefixes);
    }

    private static IpPrefix parseOne(String text) {
        IpPrefix prefix;
        try {
            prefix = IpPrefix.parse(text == null ? "" : text.strip());
        } catch (IllegalArgumentException e) {
            throw MeshException.invalid("route \"" + text + "\" is not a CIDR prefix such as 10.0.0.0/24");
        }
        IpPrefix network = prefix.masked();
        if (!network.equals(prefix)) {
            throw MeshException.invalid("route \"" + text + "\" has host bits set; the prefix is " + network);
        }
        return prefix;
    }
}
