package io.meshcontrol.core.wire;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.meshcontrol.core.net.IpAddressPort;
import java.time.Duration;
import java.util.List;

/**
 * What happens to a matching SSH connection: accept, reject, or ask control ({@code holdAndDelegate}). Go:
 * {@code tailcfg.SSHAction}; every field is left out when empty. The reply to a {@code holdAndDelegate} URL is also an
 * SSHAction.
 *
 * @param message text shown to the user before the action
 * @param reject refuse the connection
 * @param accept accept the connection
 * @param sessionDuration the longest session before it is closed (Go nanoseconds on the wire); absent means no limit
 * @param allowAgentForwarding allow SSH agent forwarding
 * @param holdAndDelegate a URL the client fetches over Noise to get the real action (check mode); it may contain
 *     {@code $SRC_NODE_IP}, {@code $SRC_NODE_ID}, {@code $DST_NODE_IP}, {@code $DST_NODE_ID}, {@code $SSH_USER},
 *     {@code $LOCAL_USER}
 * @param allowLocalPortForwarding allow local port forwarding
 * @param allowRemotePortForwarding allow remote port forwarding
 * @param recorders session recorders (ip:port) the session must be streamed to
 * @param onRecordingFailure what to do when recording fails; absent means the default (reject)
 */
public record SSHAction(
        @JsonProperty("message") @OmitEmpty String message,
        @JsonProperty("reject") @OmitEmpty boolean reject,
        @JsonProperty("accept") @OmitEmpty boolean accept,
        @JsonProperty("sessionDuration") @OmitEmpty Duration sessionDuration,
        @JsonProperty("allowAgentForwarding") @OmitEmpty boolean allowAgentForwarding,
        @JsonProperty("holdAndDelegate") @OmitEmpty String holdAndDelegate,
        @JsonProperty("allowLocalPortForwarding") @OmitEmpty boolean allowLocalPortForwarding,
        @JsonProperty("allowRemotePortForwarding") @OmitEmpty boolean allowRemotePortForwarding,
        @JsonProperty("recorders") @OmitEmpty List<IpAddressPort> recorders,
        @JsonProperty("onRecordingFailure") @OmitNull SSHRecorderFailureAction onRecordingFailure) {

    public SSHAction {
        message = Copies.text(message);
        holdAndDelegate = Copies.text(holdAndDelegate);
        recorders = Copies.orEmpty(recorders);
    }

    /** Accept, with agent and port forwarding allowed (the usual "accept" of a policy). */
    public static SSHAction acceptWithForwarding() {
        return new SSHAction("", false, true, null, true, "", true, true, null, null);
    }

    /** Reject with a message. */
    public static SSHAction rejectWith(String message) {
        return new SSHAction(message, true, false, null, false, "", false, false, null, null);
    }

    /** Ask control at {@code url} (check mode). */
    public static SSHAction holdAndDelegate(String url) {
        return new SSHAction("", false, false, null, false, url, false, false, null, null);
    }

    /** The same action with another recording-failure action. */
    public SSHAction withOnRecordingFailure(SSHRecorderFailureAction failure) {
        return new SSHAction(message, reject, accept, sessionDuration, allowAgentForwarding, holdAndDelegate,
                allowLocalPortForwarding, allowRemotePortForwarding, recorders, failure);
    }
}
