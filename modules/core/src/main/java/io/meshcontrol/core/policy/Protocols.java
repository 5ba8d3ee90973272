package io.meshcontrol.core.policy;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/** IP protocol names and numbers as a rule's {@code proto} (or a grant's {@code ip} prefix) may give them. */
public final class Protocols {

    public static final int ICMP = 1;
    public static final int TCP = 6;
    public static final int UDP = 17;
    public static final int SCTP = 132;
    public static final int ICMPV6 = 58;

    private static final Map<String, Integer> NAMES = Map.ofEntries(
            Map.entry("icmp", ICMP), Map.entry("igmp", 2), Map.entry("ipv4", 4), Map.entry("ip-in-ip", 4),
            Map.entry("tcp", TCP), Map.entry("egp", 8), Map.entry("igp", 9), Map.entry("udp", UDP),
            Map.entry("gre", 47), Map.entry("esp", 50), Map.entry("ah", 51), Map.entry("ipv6-icmp", ICMPV6),
            Map.entry("sctp", SCTP), Map.entry("fc", 133));

    private Protocols() {
    }

    /**
     * The protocol numbers a name or number stands for; an empty text means the defaults (an empty list: TCP, UDP
     * and ICMP, which the client fills in).
     *
     * @throws PolicyException naming the bad protocol
     */
    public static List<Integer> parse(String text) {
        if (text.isEmpty()) {
            return List.of();
        }
        Integer named = NAMES.get(text.toLowerCase(Locale.ROOT));
        if (named != null) {
            return List.of(named);
        }
        if (!text.chars().allMatch(Character::isDigit)) {
            throw new PolicyException("proto name \"" + text
                    + "\" not known; use protocol number 0-255 or protocol name (icmp, tcp, udp, etc.)");
        }
        if (text.length() > 1 && text.charAt(0) == '0' || text.equals("0")) {
            throw new PolicyException("leading 0 not permitted in protocol number \"" + text + "\"");
        }
        int number = text.length() > 3 ? 256 : Integer.parseInt(text);
        if (number > 255) {
            throw new PolicyException("protocol number out of range (0-255): " + text);
        }
        return List.of(number);
    }

    /** The name of a protocol number (the shortest where two name it), or the number when it has none here. */
    public static String name(int number) {
        return NAMES.entrySet().stream().filter(entry -> entry.getValue() == number).map(Map.Entry::getKey)
                .min(java.util.Comparator.comparingInt(String::length).thenComparing(java.util.Comparator.naturalOrder()))
                .orElse(Integer.toString(number));
    }

    /** Whether traffic of these protocols has ports (an empty list is the defaults, which include TCP and UDP). */
    public static boolean hasPorts(List<Integer> protocols) {
        return protocols.isEmpty() || protocols.stream().anyMatch(p -> p == TCP || p == UDP || p == SCTP);
    }
}
