package io.meshcontrol.core.wire;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * Whether the client is up to date, in {@code MapResponse.ClientVersion}; non-Windows clients expect one from capver
 * 73. Go: {@code tailcfg.ClientVersion}; every field is left out when empty. Absent in a map message means unchanged.
 *
 * @param runningLatest the client runs the latest version
 * @param latestVersion the latest version ("1.104.5") when the client is behind
 * @param urgentSecurityUpdate the client lacks a security fix
 * @param notifyUser the client should tell its user
 * @param notifyUrl where the user can update
 * @param notifyText the text to show
 */
public record ClientVersion(
        @JsonProperty("RunningLatest") @OmitEmpty boolean runningLatest,
        @JsonProperty("LatestVersion") @OmitEmpty String latestVersion,
        @JsonProperty("UrgentSecurityUpdate") @OmitEmpty boolean urgentSecurityUpdate,
        @JsonProperty("Notify") @OmitEmpty boolean notifyUser,
        @JsonProperty("NotifyURL") @OmitEmpty String notifyUrl,
        @JsonProperty("NotifyText") @OmitEmpty String notifyText) {

    public ClientVersion {
        latestVersion = Copies.text(latestVersion);
        notifyUrl = Copies.text(notifyUrl);
        notifyText = Copies.text(notifyText);
    }

    /** "You run the latest version": what a server that does not track releases sends. */
    public static ClientVersion latest() {
        return new ClientVersion(true, "", false, false, "", "");
    }
}
