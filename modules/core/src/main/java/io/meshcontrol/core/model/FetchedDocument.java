package io.meshcontrol.core.model;

import java.time.Instant;

/**
 * A document the server fetched from outside for the whole network (a DERP map, the latest client release, the ACME
 * certificate), as stored for every instance.
 *
 * @param name what it is, such as {@code client-release}
 * @param fetchedAt when it was last fetched, or last found unchanged
 */
public record FetchedDocument(String name, String body, Instant fetchedAt) {
}
