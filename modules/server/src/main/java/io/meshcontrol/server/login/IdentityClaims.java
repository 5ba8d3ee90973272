package io.meshcontrol.server.login;

import java.time.Instant;
import java.util.List;

/**
 * What a verified ID token says about the person who logged in.
 *
 * @param email the {@code email} claim, empty when absent (whether to trust it is {@link LoginRules}'s call)
 * @param groups the {@code groups} claim, empty when absent
 * @param expires the token's {@code exp}
 */
record IdentityClaims(String issuer, String subject, String email, boolean emailVerified, String preferredUsername,
        String name, List<String> groups, Instant expires) {

    IdentityClaims {
        email = email == null ? "" : email;
        preferredUsername = preferredUsername == null ? "" : preferredUsername;
        name = name == null ? "" : name;
        groups = groups == null ? List.of() : List.copyOf(groups);
    }
}
