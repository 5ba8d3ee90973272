package io.meshcontrol.api;

import java.util.List;

/**
 * {@code POST /api/v1/apps} and {@code PUT /api/v1/app/{id}}: every field of an app (PUT replaces them all).
 *
 * @param name 1 to 63 characters, unique
 * @param domains domain names or wildcards {@code *.<domain>} (a wildcard also covers the base domain)
 * @param connectors tag selectors ({@code tag:<name>}) or {@code *}; left out or empty means {@code *}
 * @param routes static prefixes its connectors always advertise; {@code 0.0.0.0/0} and {@code ::/0} are refused
 */
public record AppRequest(String name, String description, List<String> domains, List<String> connectors,
        List<String> routes) {
}
