package io.meshcontrol.core.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.meshcontrol.core.model.Role;
import io.meshcontrol.core.model.User;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The one rule of what a credential may do: its scopes, its owner's role and its creator's role, all at once. */
class ScopeBoundsTest {

    private static User user(Role role) {
        return new User(1, "u", "", "", role, Instant.EPOCH, true);
    }

    @Test
    void nothingBoundingMeansAllAccess() {
        assertEquals(List.of("all"), ScopeBounds.boundedByOwnerAndCreator(List.of(), null, null));
    }

    @Test
    void withoutScopesTheOwnersWholeRole() {
        assertEquals(RoleScopes.of(Role.NETWORK_ADMIN),
                ScopeBounds.boundedByOwnerAndCreator(List.of(), user(Role.NETWORK_ADMIN), null));
    }

    @Test
    void theCreatorBoundsLikeTheOwner() {
        assertEquals(RoleScopes.of(Role.AUDITOR),
                ScopeBounds.boundedByOwnerAndCreator(List.of(), user(Role.OWNER), user(Role.AUDITOR)));
        assertEquals(RoleScopes.of(Role.AUDITOR),
                ScopeBounds.boundedByOwnerAndCreator(List.of(), null, user(Role.AUDITOR)),
                "an ownerless key made by an auditor is no more than an auditor");
        assertEquals(List.of(), ScopeBounds.boundedByOwnerAndCreator(List.of("dns"), user(Role.ADMIN), user(Role.MEMBER)));
    }

    @Test
    void aWriteScopeTheBoundsOnlyReadShrinksToItsReadForm() {
        assertEquals(List.of("policy_file:read"),
                ScopeBounds.boundedByOwnerAndCreator(List.of("policy_file"), user(Role.IT_ADMIN), null));
    }
}
