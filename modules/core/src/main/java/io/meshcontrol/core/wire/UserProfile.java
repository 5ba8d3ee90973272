package io.meshcontrol.core.wire;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * Display data of a user, sent in {@code MapResponse.UserProfiles} for every user a node sees (its own and its peers'
 * owners). Go: {@code tailcfg.UserProfile}. Profiles are additive: send new or changed ones only.
 *
 * @param id the user's id; always written
 * @param loginName the e-mail-like login name, for display; always written
 * @param displayName the display name; always written
 * @param profilePicUrl a picture URL; absent when empty
 * @param groups groups of the user that control chose to reveal; absent when none
 */
public record UserProfile(
        @JsonProperty("ID") long id,
        @JsonProperty("LoginName") String loginName,
        @JsonProperty("DisplayName") String displayName,
        @JsonProperty("ProfilePicURL") @OmitEmpty String profilePicUrl,
        @JsonProperty("Groups") @OmitEmpty List<String> groups) {

    public UserProfile {
        loginName = Copies.text(loginName);
        displayName = Copies.text(displayName);
        profilePicUrl = Copies.text(profilePicUrl);
        groups = Copies.orEmpty(groups);
    }
}
