package io.meshcontrol.core.auth;

import io.meshcontrol.core.MeshException;
import java.util.List;

/**
 * What an OAuth client or federated identity may be given by whoever creates or changes it: never more than the
 * creator could delegate (Authentication, item 4). Unlike API keys, nothing is silently dropped: a scope the creator
 * does not hold refuses the whole request, naming it, so a client never looks as if it could do more than it can.
 * The tag half of the rule needs the policy and lives with it ({@code core.state.TagRules}).
 */
public final class ClientDelegation {

    /** The vendor's rule: clients that can make or change machines must name the tags those machines get. */
    private static final List<String> NEEDS_TAGS = List.of("devices:core", "auth_keys");

    private ClientDelegation() {
    }

    /** Refuses scopes the creator does not hold, naming them. */
    public static void requireDelegable(Caller creator, List<String> scopes) {
        List<String> refused = scopes.stream().filter(scope -> !creator.may(scope)).toList();
        if (!refused.isEmpty()) {
            throw MeshException.forbidden("this credential cannot delegate the scopes " + refused
                    + "; an OAuth client never gets more than its creator holds");
        }
    }

    /** Tags are mandatory when the scopes include {@code devices:core} or {@code auth_keys}. */
    public static void requireTagsWhereNeeded(List<String> scopes, List<String> tags) {
        List<String> needing = scopes.stream().filter(NEEDS_TAGS::contains).toList();
        if (tags.isEmpty() && !needing.isEmpty()) {
            throw MeshException.invalid("tags are required when the scopes include " + String.join(" or ", needing));
        }
    }
}
