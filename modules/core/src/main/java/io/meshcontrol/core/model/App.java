package io.meshcontrol.core.model;

import java.time.Instant;
import java.util.List;

/**
 * An app: a set of domains whose traffic leaves the network through app connector nodes.
 *
 * @param name 1 to 63 characters, unique
 * @param domains lower-case domain names or wildcards {@code *.<domain>}; a wildcard also covers its base domain
 * @param connectors tag selectors ({@code tag:<name>}) or {@code *} for every tagged machine running the connector
 * @param routes static prefixes its connectors always advertise (never an exit route)
 */
public record App(long id, String name, String description, List<String> domains, List<String> connectors,
        List<String> routes, Instant createdAt, Instant updatedAt) {

    /** Every tagged machine that runs the connector. */
    public static final String ANY_CONNECTOR = "*";

    public App {
        description = description == null ? "" : description;
        domains = List.copyOf(domains);
        connectors = List.copyOf(connectors);
        routes = List.copyOf(routes);
    }

    /** Whether a machine with these tags acts for this app (given that it runs the connector). */
    public boolean servedBy(List<String> tags) {
        return !tags.isEmpty() && (connectors.contains(ANY_CONNECTOR) || tags.stream().anyMatch(connectors::contains));
    }
}
