package io.meshcontrol.core.model;

import io.meshcontrol.core.MeshException;
import java.util.Arrays;
import java.util.stream.Collectors;

/** The vendor's user roles, by their wire names. What each may do is {@link io.meshcontrol.core.auth.RoleScopes}. */
public enum Role {
    OWNER("owner"),
    ADMIN("admin"),
    IT_ADMIN("it-admin"),
    NETWORK_ADMIN("network-admin"),
    BILLING_ADMIN("billing-admin"),
    AUDITOR("auditor"),
    MEMBER("member");

    private final String wireName;

    Role(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    public static Role fromWireName(String name) {
        for (Role role : values()) {
            if (role.wireName.equals(name)) {
                return role;
            }
        }
        throw MeshException.invalid("unknown role \"" + name + "\"; expected one of " + names());
    }

    public static String names() {
        return Arrays.stream(values()).map(Role::wireName).collect(Collectors.joining(", "));
    }
}
