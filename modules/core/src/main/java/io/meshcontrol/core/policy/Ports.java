package io.meshcontrol.core.policy;

import io.meshcontrol.core.wire.PortRange;
import java.util.ArrayList;
import java.util.List;

/** The port part of a rule destination: {@code *}, {@code 22}, {@code 80,443}, {@code 1000-2000}. */
public final class Ports {

    private Ports() {
    }

    public static List<PortRange> parse(String text) {
        if (text.equals("*")) {
            return List.of(PortRange.ANY);
        }
        List<PortRange> ranges = new ArrayList<>();
        for (String part : text.split(",")) {
            String[] bounds = part.split("-", 2);
            try {
                int first = Integer.parseInt(bounds[0].trim());
                int last = bounds.length == 2 ? Integer.parseInt(bounds[1].trim()) : first;
                if (first < 0 || last > 65535 || first > last) {
                    throw new NumberFormatException();
                }
                ranges.add(new PortRange(first, last));
            } catch (NumberFormatException e) {
                throw new PolicyException("invalid port range \"" + part + "\"");
            }
        }
        return ranges;
    }
}
