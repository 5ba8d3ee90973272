package io.meshcontrol.core.policy;

import io.meshcontrol.core.wire.PortRange;
import java.util.ArrayList;
import java.util.List;

/** The port part of a destination: {@code *}, {@code 22}, {@code 80,443}, {@code 1000-2000}; the vendor's errors. */
public final class Ports {

    private Ports() {
    }

    /** @throws PolicyException in the vendor's words, e.g. {@code port range "ssh": invalid first integer} */
    public static List<PortRange> parse(String text) {
        if (text.equals("*")) {
            return List.of(PortRange.ANY);
        }
        List<PortRange> ranges = new ArrayList<>();
        for (String part : text.split(",", -1)) {
            ranges.add(range(part));
        }
        return List.copyOf(ranges);
    }

    /** The ranges as a policy writes them ({@link #parse}'s inverse): {@code *} when they hold every port. */
    public static String text(List<PortRange> ranges) {
        if (ranges.contains(PortRange.ANY)) {
            return "*";
        }
        return String.join(",", ranges.stream().map(r -> r.first() == r.last() ? Integer.toString(r.first())
                : r.first() + "-" + r.last()).toList());
    }

    private static PortRange range(String part) {
        if (part.equals("*")) {
            return PortRange.ANY;
        }
        int dash = part.indexOf('-');
        int first = number(dash < 0 ? part : part.substring(0, dash), part, "first");
        int last = dash < 0 ? first : number(part.substring(dash + 1), part, "last");
        if (first == 0) {
            throw new PolicyException("port range \"" + part + "\": first port must be >0, or use '*' for wildcard");
        }
        if (last < first) {
            throw new PolicyException("port range \"" + part + "\": last port must be >= first port");
        }
        return new PortRange(first, last);
    }

    /** Like Go's strconv.ParseUint(s, 10, 16): decimal digits only, at most 65535. */
    private static int number(String digits, String part, String which) {
        if (digits.isEmpty() || digits.length() > 5 || !digits.chars().allMatch(c -> c >= '0' && c <= '9')
                || Integer.parseInt(digits) > 65535) {
            throw new PolicyException("port range \"" + part + "\": invalid " + which + " integer");
        }
        return Integer.parseInt(digits);
    }
}
