package io.meshcontrol.core.wire;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * What to do when SSH session recording fails. Go: {@code tailcfg.SSHRecorderFailureAction}; unlike the other SSH
 * types its JSON names are PascalCase. Every field is left out when empty.
 *
 * @param rejectSessionWithMessage refuse a session that cannot start recording, with this message
 * @param terminateSessionWithMessage end a session whose recording breaks, with this message
 * @param notifyUrl a URL the client posts the failure to (over Noise)
 */
public record SSHRecorderFailureAction(
        @JsonProperty("RejectSessionWithMessage") @OmitEmpty String rejectSessionWithMessage,
        @JsonProperty("TerminateSessionWithMessage") @OmitEmpty String terminateSessionWithMessage,
        @JsonProperty("NotifyURL") @OmitEmpty String notifyUrl) {

    public SSHRecorderFailureAction {
        rejectSessionWithMessage = Copies.text(rejectSessionWithMessage);
        terminateSessionWithMessage = Copies.text(terminateSessionWithMessage);
        notifyUrl = Copies.text(notifyUrl);
    }
}
