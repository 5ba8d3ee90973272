package io.meshcontrol.core.policy;

import java.util.Locale;

/**
 * What posture conditions can ask of a machine: what its client reports (Hostinfo) and where the location database
 * places it. Any of them may be null (not reported, or not placed).
 *
 * @param os {@code node:os}, as the client reports it ({@code linux}, {@code macOS}, {@code windows} ...)
 * @param osVersion {@code node:osVersion}
 * @param tsVersion {@code node:tsVersion}: the client's version ({@code 1.80.3}, without its build suffix);
 *     {@code node:tsReleaseTrack} ({@code stable}, {@code unstable}) follows from it
 * @param country {@code ip:country}: ISO 3166-1 alpha-2 code of the machine's public address
 * @param city {@code ip:city} (ours): the English name of the city the database places it in
 */
public record MachineFacts(String os, String osVersion, String tsVersion, String country, String city) {

    public static final MachineFacts NONE = new MachineFacts(null, null, null, null, null);

    /** The value of a posture attribute, or null when the machine has none. */
    String attribute(String name) {
        return switch (name) {
            case "node:os" -> os == null ? null : os.toLowerCase(Locale.ROOT);
            case "node:osVersion" -> osVersion;
            case "node:tsVersion" -> tsVersion;
            case "node:tsReleaseTrack" -> releaseTrack(tsVersion);
            case "ip:country" -> country;
            case "ip:city" -> city;
            default -> null;
        };
    }

    /** The vendor's release tracks: an even minor version is stable ({@code 1.80}), an odd one unstable. */
    private static String releaseTrack(String version) {
        if (version == null) {
            return null;
        }
        String[] parts = version.split("\\.");
        if (parts.length < 2 || !parts[1].matches("[0-9]{1,9}")) {
            return null;
        }
        return Integer.parseInt(parts[1]) % 2 == 0 ? "stable" : "unstable";
    }

    public MachineFacts withLocation(String country, String city) {
        return new MachineFacts(os, osVersion, tsVersion, country, city);
    }
}
