package io.meshcontrol.core.auth;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.model.User;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The spec's key-minting rules (Authentication, item 3): a new key never exceeds its creator, scopes the
 * creator cannot delegate are dropped, and a key made by a scoped key inherits that key's scopes.
 */
public final class KeyMinting {

    public static final String MANAGE_SCOPE = "api_access_tokens";

    /**
     * What a new key gets.
     *
     * @param owner the key's owner, or null for an all-access key
     * @param creatorUserId who bounds the key besides its owner ({@link ScopeBounds#creatorFor}), or null
     * @param scopes explicit scopes; empty = the owner's whole role
     * @param droppedScopes requested scopes the caller could not delegate
     */
    public record Decision(User owner, Long creatorUserId, List<String> scopes, List<String> droppedScopes) {
    }

    private KeyMinting() {
    }

    /**
     * @param requestedOwner the {@code --user}, or null
     * @param requested requested scopes, already checked to be known names
     */
    public static Decision decide(Caller caller, User requestedOwner, List<String> requested) {
        if (caller.kind() == Caller.Kind.ACCESS_TOKEN) {
            throw MeshException.forbidden("an OAuth access token cannot mint API keys; use an API key");
        }
        caller.require(MANAGE_SCOPE);
        // A bounded caller cannot make an all-access key: without --user the key is the caller's own.
        User owner = requestedOwner != null || caller.isAllAccess() ? requestedOwner : caller.owner();
        Long creator = ScopeBounds.creatorFor(caller, owner);
        List<String> ownerRole = owner == null ? List.of(Scopes.ALL) : RoleScopes.of(owner.role());

        if (!requested.isEmpty()) {
            List<String> kept = new ArrayList<>();
            List<String> dropped = new ArrayList<>();
            List<String> reasons = new ArrayList<>();
            for (String scope : requested) {
                if (!caller.may(scope)) {
                    dropped.add(scope);
                    reasons.add("\"" + scope + "\" is not held by this credential");
                } else if (!Scopes.covers(ownerRole, scope)) {
                    dropped.add(scope);
                    reasons.add("\"" + scope + "\" exceeds the role " + owner.role().wireName() + " of user "
                            + owner.name());
                } else {
                    kept.add(scope);
                }
            }
            if (kept.isEmpty()) {
                throw MeshException.forbidden("none of the requested scopes can be delegated: " + String.join("; ", reasons));
            }
            return new Decision(owner, creator, kept, dropped);
        }
        if (caller.isAllAccess() && !caller.isScoped()) {
            return new Decision(owner, creator, List.of(), List.of());
        }
        if (!caller.isScoped() && owner != null && caller.owner() != null && owner.id() == caller.owner().id()) {
            return new Decision(owner, creator, List.of(), List.of());
        }
        // Inherit what the caller holds, written out so the new key can never outgrow it.
        List<String> inherited = caller.effectiveScopes().stream().filter(scope -> Scopes.covers(ownerRole, scope)).toList();
        if (inherited.isEmpty()) {
            throw MeshException.forbidden("none of this credential's scopes can be delegated to user "
                    + Objects.requireNonNull(owner).name() + " (role " + owner.role().wireName() + ")");
        }
        return new Decision(owner, creator, inherited, List.of());
    }

    /**
     * Who a pre-auth key may belong to; both API versions mint through here. A machine joined with a user's key acts
     * as that user, so: an OAuth access token mints only keys that belong to the network and carry its tags (spec,
     * Authentication item 4), and another credential mints keys for its own user or for a user whose role it holds
     * whole (the rank rule that bounds changes to users).
     *
     * @param userName the requested user, or null for a tags-only key; checked before the user is looked up, so that a
     *     token learns nothing about which users exist
     */
    public static void requireMayMintAuthKeysAs(Caller caller, String userName) {
        if (userName != null && caller.kind() == Caller.Kind.ACCESS_TOKEN) {
            throw MeshException.forbidden("an OAuth access token cannot mint auth keys for a user (\"" + userName
                    + "\"): its keys belong to the network and carry the token's tags; leave out the user");
        }
    }

    /** The rest of {@link #requireMayMintAuthKeysAs(Caller, String)}, once the user is known. */
    public static void requireMayMintAuthKeysAs(Caller caller, User user) {
        boolean ownUser = caller.owner() != null && caller.owner().id() == user.id();
        if (!ownUser && !caller.holdsRole(user.role())) {
            throw MeshException.forbidden("this credential may not mint auth keys for user " + user.name() + " (role "
                    + user.role().wireName() + "): machines joined with them act as that user, and the role holds "
                    + "more than the credential");
        }
    }

    /**
     * Whether the caller may rotate or expire API keys at all. Checked before the key is looked up, so that a caller
     * without the right learns nothing about which keys exist (403 for every prefix, not 404 for unknown ones).
     *
     * @param verb what is being done, for the message ("rotate", "expire")
     */
    public static void requireMayManageKeys(Caller caller, String verb) {
        if (caller.kind() == Caller.Kind.ACCESS_TOKEN) {
            throw MeshException.forbidden("an OAuth access token cannot " + verb + " API keys");
        }
        caller.require(MANAGE_SCOPE);
    }

    /**
     * Rotating or expiring a key is allowed only to a caller that could have minted it.
     *
     * @param verb what is being done, for the message ("rotate", "expire")
     * @param target the caller the key stands for now (what it may do, bounded by its owner and creator)
     */
    public static void requireMayManage(Caller caller, String verb, Caller target) {
        requireMayManageKeys(caller, verb);
        List<String> targetScopes = target.effectiveScopes();
        if (!Scopes.coversAll(caller.effectiveScopes(), targetScopes)) {
            throw MeshException.forbidden("this credential may not " + verb + " key " + target.apiKey().prefix()
                    + ": its scopes " + targetScopes + " exceed what this credential could mint "
                    + caller.effectiveScopes());
        }
    }
}
