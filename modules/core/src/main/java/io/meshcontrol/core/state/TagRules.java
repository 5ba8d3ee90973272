package io.meshcontrol.core.state;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.model.Role;
import io.meshcontrol.core.model.User;
import io.meshcontrol.core.policy.Policy;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Who may put which tags on machines, by the policy's {@code tagOwners}: a tag must be defined there, and
 * the one applying it must own it (as a user, or through tags it already holds). Refusals use the
 * vendor's words.
 */
final class TagRules {

    private TagRules() {
    }

    /**
     * Tags set by a credential: keys it mints, nodes it tags, OAuth clients it creates. A tag not defined in
     * {@code tagOwners} is invalid (400, the vendor's words); a defined one the caller may not give is refused as a
     * 403 that names it. Policy editors may use every defined tag. An OAuth access token may use only the tags it holds and the tags those own through
     * {@code tagOwners}, whatever its scopes (Authentication, item 4).
     */
    static void requireCallerMayApply(Policy policy, Caller caller, List<String> tags) {
        refuseIfAny(tags.stream().filter(tag -> !policy.definesTag(tag)).toList());
        List<String> notOwned = tags.stream().filter(tag -> !owns(policy, caller, tag)).toList();
        if (!notOwned.isEmpty()) {
            // Defined tags the caller may not give: a refusal of who asks (403), which names the tags.
            throw MeshException.forbidden("requested tags [" + String.join(" ", notOwned) + "] are not permitted: "
                    + (caller.kind() == Caller.Kind.ACCESS_TOKEN ? "the token's tags " + caller.tags() + " do not own them"
                            : "this credential neither edits the policy nor owns them") + " in the policy's tagOwners");
        }
    }

    /** The tags of {@code tagOwners} that {@code caller} may give, as {@link #requireCallerMayApply} decides. */
    static List<String> applicableBy(Policy policy, Caller caller) {
        return policy.tagOwners().keySet().stream().filter(tag -> owns(policy, caller, tag)).sorted().toList();
    }

    private static boolean owns(Policy policy, Caller caller, String tag) {
        return caller.kind() == Caller.Kind.ACCESS_TOKEN ? policy.tagsOwn(Set.copyOf(caller.tags()), tag)
                : caller.may(Policies.WRITE_SCOPE) || (caller.owner() != null && owns(policy, caller.owner(), tag));
    }

    /**
     * The tags a registering machine ends up with. A tagged key gives its tags; {@code --advertise-tags}
     * may replace them with tags the key's tags own, or tag a user's machine with tags the user owns.
     */
    static List<String> forRegistration(Policy policy, User user, List<String> keyTags, List<String> requested) {
        if (requested.isEmpty()) {
            return keyTags;
        }
        Set<String> held = Set.copyOf(keyTags);
        List<String> refused = requested.stream().filter(tag -> !policy.definesTag(tag)
                || !(keyTags.isEmpty() ? user != null && owns(policy, user, tag) : policy.tagsOwn(held, tag)))
                .toList();
        refuseIfAny(refused);
        return List.copyOf(new java.util.LinkedHashSet<>(requested));
    }

    private static boolean owns(Policy policy, User user, String tag) {
        Set<String> logins = new HashSet<>(List.of(user.name(), user.name() + "@", user.loginName()));
        boolean admin = user.role() == Role.OWNER || user.role() == Role.ADMIN;
        return policy.userOwns(logins, admin, tag);
    }

    private static void refuseIfAny(List<String> refused) {
        if (!refused.isEmpty()) {
            throw MeshException.invalid("requested tags [" + String.join(" ", refused) + "] are invalid or not permitted");
        }
    }
}
