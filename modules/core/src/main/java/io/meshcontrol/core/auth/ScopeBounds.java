package io.meshcontrol.core.auth;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.model.User;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What a credential may do: its own scopes, bounded by the role of the user who owns it and by the role of the user
 * who made it, both read when it is used (docs/roles-and-scopes.md, "What a key may do"). API keys use it; anything
 * else a user makes for someone (an OAuth client) is bounded the same way.
 */
public final class ScopeBounds {

    private static final List<String> UNBOUNDED = List.of(Scopes.ALL);

    private ScopeBounds() {
    }

    /**
     * The scopes a credential holds now.
     *
     * @param explicitScopes its own scopes; empty = no limit of its own (the owner's whole role, or all access)
     * @param owner the user it belongs to as they are now, or null for none
     * @param creator the user who made it as they are now, or null when nobody bounds it that way (the local
     *     administrator made it, or it predates recorded creators); a credential whose recorded creator no longer
     *     exists is not to be used at all
     */
    public static List<String> boundedByOwnerAndCreator(List<String> explicitScopes, User owner, User creator) {
        List<String> own = explicitScopes.isEmpty() ? UNBOUNDED : explicitScopes;
        List<String> byOwner = Scopes.intersection(own, owner == null ? UNBOUNDED : RoleScopes.of(owner.role()));
        return Scopes.intersection(byOwner, creator == null ? UNBOUNDED : RoleScopes.of(creator.role()));
    }

    /**
     * The creator to record on a credential {@code minter} makes for {@code owner}: the one user, besides the owner,
     * whose role must keep bounding it so that it can never do more than the minter can. That is the minting key's
     * owner, or, for a key someone made for another user, whichever of its owner and creator the new owner is not. A
     * key bounded by two users can therefore mint only for one of them (one creator is recorded); anything else is
     * refused. Null for the local administrator, who is bounded by nobody.
     *
     * @param owner the new credential's owner, or null for none
     */
    public static Long creatorFor(Caller minter, User owner) {
        return switch (minter.kind()) {
            case LOCAL_ADMIN -> null;
            // A person in a browser session is bounded by their own role, whoever the new credential is for.
            case SESSION -> minter.owner().id();
            case ACCESS_TOKEN -> throw new IllegalArgumentException(
                    "an access token is bounded by its OAuth client, not by a user who made it");
            case API_KEY -> {
                Set<Long> bounding = new LinkedHashSet<>();
                if (minter.apiKey().ownerUserId() != null) {
                    bounding.add(minter.apiKey().ownerUserId());
                }
                if (minter.apiKey().creatorUserId() != null) {
                    bounding.add(minter.apiKey().creatorUserId());
                }
                if (bounding.isEmpty()) {
                    yield null; // an unbounded key (ownerless, made by the local administrator or before creators)
                }
                if (owner != null) {
                    bounding.remove(owner.id());
                }
                if (bounding.size() > 1) {
                    String ownerName = minter.owner().name();
                    throw MeshException.forbidden("this key was made for " + ownerName + " by another user, so it "
                            + "can make credentials only for " + ownerName + " or for the user who made it");
                }
                yield bounding.isEmpty() ? owner.id() : bounding.iterator().next();
            }
        };
    }
}
