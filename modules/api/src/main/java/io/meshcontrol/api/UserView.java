package io.meshcontrol.api;

import java.time.Instant;

/**
 * A user as the API shows it. {@code id} is a decimal string, {@code role} a vendor role name; {@code approved} is
 * false while a user made by a first login waits for users approval.
 */
public record UserView(String id, String name, String displayName, String email, String role, Instant createdAt,
        boolean approved) {
}
