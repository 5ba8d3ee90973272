package io.meshcontrol.core.address;

import io.meshcontrol.core.Limits;
import io.meshcontrol.core.MeshException;
import java.util.Locale;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/** A node's name in MagicDNS: one DNS label, unique in the network; and what a domain name is. */
public final class DnsLabels {

    /** A domain name (split DNS, search domains): dot-separated labels, 253 characters at most. */
    public static final Pattern DOMAIN = Pattern.compile(
            "(?=.{1,253}$)([A-Za-z0-9_]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.)*[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?");

    private static final Pattern LABEL = Pattern.compile("[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?");
    private static final int MAX = 63;

    private DnsLabels() {
    }

    /** Lowercase, other characters to dashes, trimmed to a valid label; "node" when nothing is left. */
    public static String fromHostname(String hostname) {
        String label = hostname == null ? "" : hostname.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9-]", "-")
                .replaceAll("-+", "-").replaceAll("^-|-$", "");
        if (label.length() > MAX) {
            label = label.substring(0, MAX).replaceAll("-$", "");
        }
        return label.isEmpty() ? "node" : label;
    }

    /** {@code base}, or {@code base-1}, {@code base-2}, ... whichever is free first. */
    public static String unique(String base, Predicate<String> taken) {
        if (!taken.test(base)) {
            return base;
        }
        for (int i = 1; ; i++) {
            String suffix = "-" + i;
            String stem = base.length() + suffix.length() > MAX ? base.substring(0, MAX - suffix.length()) : base;
            String candidate = stem + suffix;
            if (!taken.test(candidate)) {
                return candidate;
            }
        }
    }

    /** Refuses a name that is not one valid DNS label, naming the rule. */
    public static String requireValid(String name) {
        Limits.text("name", name, Limits.NAME);
        if (name == null || !LABEL.matcher(name).matches()) {
            throw MeshException.invalid("invalid node name \"" + (name == null ? "" : name)
                    + "\": use 1 to 63 lowercase letters, digits or dashes, not starting or ending with a dash");
        }
        return name;
    }
}
