package io.meshcontrol.api;

import java.time.Instant;

/** A user as the API shows it. {@code id} is a decimal string, {@code role} a vendor role name. */
public record UserView(String id, String name, String displayName, String email, String role, Instant createdAt) {
}
