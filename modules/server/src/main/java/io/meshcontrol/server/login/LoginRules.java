package io.meshcontrol.server.login;

import io.meshcontrol.core.config.MeshConfig;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Who may log in ({@code oidc.allowed_groups}, {@code oidc.allowed_domains}, {@code oidc.allowed_users}) and whether
 * the e-mail claim is trusted ({@code oidc.email_verified_required}). Groups are checked whenever listed; the e-mail
 * rules need a trusted e-mail, so with either of them set an unverified address is refused rather than believed.
 */
record LoginRules(List<String> allowedDomains, List<String> allowedUsers, List<String> allowedGroups,
        boolean emailVerifiedRequired) {

    LoginRules {
        allowedDomains = allowedDomains.stream().map(d -> d.toLowerCase(Locale.ROOT)).toList();
        allowedUsers = allowedUsers.stream().map(u -> u.toLowerCase(Locale.ROOT)).toList();
        allowedGroups = List.copyOf(allowedGroups);
    }

    static LoginRules from(MeshConfig.Oidc oidc) {
        return new LoginRules(oidc.allowedDomains(), oidc.allowedUsers(), oidc.allowedGroups(),
                oidc.emailVerifiedRequired());
    }

    /** Whether the token's e-mail may be believed: verified, or verification not required. */
    boolean trustsEmail(IdentityClaims claims) {
        return !claims.email().isEmpty() && (claims.emailVerified() || !emailVerifiedRequired);
    }

    /** Why this person may not log in, in words for them; empty when they may. */
    Optional<String> refusal(IdentityClaims claims) {
        if (!allowedGroups.isEmpty() && claims.groups().stream().noneMatch(allowedGroups::contains)) {
            return Optional.of("your account is not in a group allowed to log in here");
        }
        if (allowedDomains.isEmpty() && allowedUsers.isEmpty()) {
            return Optional.empty();
        }
        if (!trustsEmail(claims)) {
            return Optional.of(claims.email().isEmpty() ? "your account has no e-mail address, which this server needs"
                    : "your e-mail address is not verified at the identity provider");
        }
        String email = claims.email().toLowerCase(Locale.ROOT);
        String domain = email.substring(email.lastIndexOf('@') + 1);
        if (!allowedDomains.isEmpty() && !allowedDomains.contains(domain)) {
            return Optional.of("accounts of the domain " + domain + " may not log in here");
        }
        if (!allowedUsers.isEmpty() && !allowedUsers.contains(email)) {
            return Optional.of("the account " + claims.email() + " may not log in here");
        }
        return Optional.empty();
    }
}
