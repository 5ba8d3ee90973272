package io.meshcontrol.core.policy;

import java.util.Locale;

/**
 * What posture conditions can ask of a machine: what its client reports (Hostinfo) and where the location database
 * places it. Any of them may be null (not reported, or not placed).
 *
 * @param os {@code node:os}, as the client reports it ({@code linux}, {@code macOS}, {@code windows} ...)
 * @param osVersion {@code node:osVersion}
 * @param tsVersion {@code node:tsVersion}: the client's version ({@code 1.80.3}, without its build suffix)
 * @param country {@code ip:country}: ISO 3166-1 alpha-2 code of the machine's public address
 * @param city {@code ip:city} (ours): the English name of the city the database places it in
 */
public record MachineFacts(String os, String osVersion, String tsVersion, String country, String city) {

    public static final MachineFacts NONE = new MachineFacts(null, null, null, null, null);

    /** The attributes posture conditions may name. */
    static final java.util.Set<String> ATTRIBUTES = java.util.Set.of("node:os", "node:osVersion", "node:tsVersion",
            "ip:country", "ip:city");

    /** The value of a posture attribute, or null when the machine has none. */
    String attribute(String name) {
        return switch (name) {
            case "node:os" -> os == null ? null : os.toLowerCase(Locale.ROOT);
            case "node:osVersion" -> osVersion;
            case "node:tsVersion" -> tsVersion;
            case "ip:country" -> country;
            case "ip:city" -> city;
            default -> null;
        };
    }

    public MachineFacts withLocation(String country, String city) {
        return new MachineFacts(os, osVersion, tsVersion, country, city);
    }
}
