package io.meshcontrol.api;

/**
 * Body of {@code POST /api/v1/user} (name required, role defaults to member) and of
 * {@code PATCH /api/v1/user/{id}} (every field optional; absent fields keep their value).
 */
public record UserRequest(String name, String displayName, String email, String role) {

    public static UserRequest rename(String newName) {
        return new UserRequest(newName, null, null, null);
    }

    public static UserRequest role(String role) {
        return new UserRequest(null, null, null, role);
    }
}
