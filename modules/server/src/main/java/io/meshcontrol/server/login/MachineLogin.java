package io.meshcontrol.server.login;

import io.meshcontrol.server.http.Reply;

/** A person's own login for a machine's AuthURL: the OIDC issuer's ({@link OidcLogin}), after which it is theirs. */
@FunctionalInterface
public interface MachineLogin {

    /** What the browser gets for the pending login {@code authId}. */
    Reply start(String authId);
}
