package io.meshcontrol.core.auth;

import io.meshcontrol.core.model.Role;
import java.util.ArrayList;
import java.util.List;

/** How a key's explicit scopes and its owner's role combine into what the key may do. */
public final class ScopeBounds {

    private ScopeBounds() {
    }

    /**
     * No owner and no scopes: all access. No scopes: the owner's whole role. Otherwise each explicit
     * scope the owner's role (if any) covers.
     */
    public static List<String> effective(List<String> explicitScopes, Role ownerRole) {
        List<String> roleScopes = ownerRole == null ? List.of(Scopes.ALL) : RoleScopes.of(ownerRole);
        if (explicitScopes.isEmpty()) {
            return roleScopes;
        }
        List<String> kept = new ArrayList<>();
        for (String scope : explicitScopes) {
            if (Scopes.covers(roleScopes, scope)) {
                kept.add(scope);
            }
        }
        return kept;
    }
}
