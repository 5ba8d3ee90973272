package io.meshcontrol.core.testing;

import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.state.Network;
import io.meshcontrol.core.state.PreAuthKeys;
import java.util.List;

/**
 * A pre-auth key to make in a test: single-use, not ephemeral, not pre-authorized and without expiry unless said
 * (add a switch here when a test needs another).
 * <pre>{@code String key = AuthKey.forUser("odin").reusable().create(network);}</pre>
 */
public final class AuthKey {

    private final String user;
    private final List<String> tags;
    private boolean reusable;
    private boolean preauthorized;

    private AuthKey(String user, List<String> tags) {
        this.user = user;
        this.tags = tags;
    }

    /** A key whose nodes belong to {@code user}. */
    public static AuthKey forUser(String user) {
        return new AuthKey(user, List.of());
    }

    /** A key whose nodes are tagged with {@code tags} and belong to no user. */
    public static AuthKey forTags(String... tags) {
        return new AuthKey(null, List.of(tags));
    }

    /** A key of {@code user} (null for none) with {@code tags}. */
    public static AuthKey of(String user, List<String> tags) {
        return new AuthKey(user, List.copyOf(tags));
    }

    public AuthKey reusable() {
        reusable = true;
        return this;
    }

    public AuthKey preauthorized() {
        preauthorized = true;
        return this;
    }

    /** Makes the key as the local admin; returns its secret. */
    public String create(Network network) {
        return network.preAuthKeys().create(Caller.localAdmin(),
                new PreAuthKeys.NewKey(user, tags, reusable, false, preauthorized, "", null)).secret();
    }
}
