package io.meshcontrol.core.wire;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Instant;

/**
 * The answer to {@code /machine/register}. Go: {@code tailcfg.RegisterResponse}; every field is always written. The
 * client looks at {@code Error} first, then {@code AuthURL}: non-empty means "send the user there and follow up".
 *
 * @param user the user owning the node; always written (zero values while authorization is pending)
 * @param login the login that registered it; always written
 * @param nodeKeyExpired true makes the client generate a new node key and register again
 * @param machineAuthorized whether the node may use the network; false leaves it waiting for approval
 * @param authUrl non-empty while interactive login is pending: the URL the user must visit; {@code ""} when done
 * @param nodeKeySignature a tailnet-lock signature for the client to re-sign; {@code null} when none
 * @param error non-empty on failure: the client shows it and ignores everything else; {@code ""} on success
 */
public record RegisterResponse(
        @JsonProperty("User") User user,
        @JsonProperty("Login") Login login,
        @JsonProperty("NodeKeyExpired") boolean nodeKeyExpired,
        @JsonProperty("MachineAuthorized") boolean machineAuthorized,
        @JsonProperty("AuthURL") String authUrl,
        @JsonProperty("NodeKeySignature") Base64Bytes nodeKeySignature,
        @JsonProperty("Error") String error) {

    public RegisterResponse {
        user = user == null ? new User(0, "", "", null) : user;
        login = login == null ? new Login(0, "", "", "", "") : login;
        authUrl = Copies.text(authUrl);
        error = Copies.text(error);
    }

    /** A pending interactive login: the client shows {@code authUrl} and follows up. */
    public static RegisterResponse authorizationPending(String authUrl) {
        return new RegisterResponse(null, null, false, false, authUrl, null, "");
    }

    /** A refusal the client shows to its user. */
    public static RegisterResponse failure(String error) {
        return new RegisterResponse(null, null, false, false, "", null, error);
    }

    /**
     * A user as the register answer names it. Go: {@code tailcfg.User}.
     *
     * @param id the user's id; always written
     * @param displayName the name shown for the user; always written
     * @param profilePicUrl a picture URL; absent when empty
     * @param created when the user was created; absent when unknown
     */
    public record User(
            @JsonProperty("ID") long id,
            @JsonProperty("DisplayName") String displayName,
            @JsonProperty("ProfilePicURL") @OmitEmpty String profilePicUrl,
            @JsonProperty("Created") @OmitEmpty Instant created) {

        public User {
            displayName = Copies.text(displayName);
            profilePicUrl = Copies.text(profilePicUrl);
            created = GoTime.orAbsent(created);
        }
    }

    /**
     * The identity-provider login behind a user. Go: {@code tailcfg.Login}.
     *
     * @param id the login's id (unused by clients); always written
     * @param provider the identity provider ("google", "oidc" ...); always written, may be {@code ""}
     * @param loginName the e-mail-like login name; always written
     * @param displayName the name from the provider; always written
     * @param profilePicUrl a picture URL; absent when empty
     */
    public record Login(
            @JsonProperty("ID") long id,
            @JsonProperty("Provider") String provider,
            @JsonProperty("LoginName") String loginName,
            @JsonProperty("DisplayName") String displayName,
            @JsonProperty("ProfilePicURL") @OmitEmpty String profilePicUrl) {

        public Login {
            provider = Copies.text(provider);
            loginName = Copies.text(loginName);
            displayName = Copies.text(displayName);
            profilePicUrl = Copies.text(profilePicUrl);
        }
    }
}
