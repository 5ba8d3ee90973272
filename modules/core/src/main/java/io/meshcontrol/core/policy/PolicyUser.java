package io.meshcontrol.core.policy;

import io.meshcontrol.core.model.Role;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * A user as the policy sees it.
 *
 * @param email may be empty; then the user is named in policies as {@code name@}
 */
public record PolicyUser(long id, String name, String email, Role role) {

    public PolicyUser {
        email = email == null ? "" : email;
    }

    /** The login the policy and SSH principals use: the e-mail, or {@code name@} without one. */
    public String login() {
        return email.isEmpty() ? name + "@" : email;
    }

    /** Every text a policy may name this user by: the e-mail and {@code name@}. */
    public Set<String> logins() {
        Set<String> logins = new LinkedHashSet<>();
        if (!email.isEmpty()) {
            logins.add(email);
        }
        logins.add(name + "@");
        return logins;
    }

    /** The domain of the e-mail, or empty. */
    public String domain() {
        int at = email.lastIndexOf('@');
        return at < 0 ? "" : email.substring(at + 1);
    }
}
