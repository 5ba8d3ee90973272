package io.meshcontrol.core.auth;

import io.meshcontrol.core.model.Role;
import java.util.List;

/**
 * What each role may do through the APIs, in scopes. The vendor describes roles in prose; this table
 * is our reading of it (docs/roles-and-scopes.md). Administrative scopes are never given to members.
 */
public final class RoleScopes {

    private RoleScopes() {
    }

    public static List<String> of(Role role) {
        return switch (role) {
            case OWNER, ADMIN -> List.of(Scopes.ALL);
            case IT_ADMIN -> List.of(Scopes.ALL_READ, "devices:core", "devices:routes", "devices:posture_attributes",
                    "auth_keys", "oauth_keys", "federated_keys", "api_access_tokens", "users", "device_invites",
                    "feature_settings", "webhooks");
            case NETWORK_ADMIN -> List.of(Scopes.ALL_READ, "policy_file", "dns", "devices:routes",
                    "networking_settings", "feature_settings", "auth_keys", "api_access_tokens", "webhooks",
                    "log_streaming", "services");
            case BILLING_ADMIN -> List.of(Scopes.ALL_READ, "account_settings");
            case AUDITOR -> List.of(Scopes.ALL_READ);
            case MEMBER -> List.of();
        };
    }
}
