package io.meshcontrol.api;

import java.time.Instant;
import java.util.List;

/**
 * An app, with the connector nodes assigned to it now.
 *
 * @param connectors tag selectors or {@code *}, as saved
 * @param connectorNodes tagged machines running the connector that act for this app
 */
public record AppView(String id, String name, String description, List<String> domains, List<String> connectors,
        List<String> routes, List<AppConnectorView> connectorNodes, Instant createdAt, Instant updatedAt) {
}
