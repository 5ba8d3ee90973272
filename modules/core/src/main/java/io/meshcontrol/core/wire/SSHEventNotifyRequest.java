package io.meshcontrol.core.wire;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.meshcontrol.core.key.NodePublicKey;
import java.util.List;

/**
 * What a node posts to the {@code NotifyURL} of an SSH action's {@link SSHRecorderFailureAction}, over its control
 * connection, when a session could not be recorded. Go: {@code tailcfg.SSHEventNotifyRequest}, encoded with Go's
 * field names (the type has no JSON tags). The server only reads it; unknown fields are skipped.
 *
 * @param eventType 1 rejected (no recorder, the session was refused), 2 terminated (recording broke, the session was
 *     ended), 3 failed (the session went on unrecorded); 0 is unspecified
 * @param connectionId the SSH connection, shared by the sessions on it
 * @param capVersion the client's capability version
 * @param nodeKey the reporting node's current node key
 * @param srcNode the id of the node the session came from
 * @param sshUser the user asked for on the SSH connection
 * @param localUser the local account it was mapped to
 * @param recordingAttempts the recorders tried, in order; {@code null} when Go's slice was nil
 */
public record SSHEventNotifyRequest(
        @JsonProperty("EventType") int eventType,
        @JsonProperty("ConnectionID") String connectionId,
        @JsonProperty("CapVersion") int capVersion,
        @JsonProperty("NodeKey") NodePublicKey nodeKey,
        @JsonProperty("SrcNode") long srcNode,
        @JsonProperty("SSHUser") String sshUser,
        @JsonProperty("LocalUser") String localUser,
        @JsonProperty("RecordingAttempts") List<SSHRecordingAttempt> recordingAttempts) {

    /**
     * Where this server takes these reports over ts2021: the {@code NotifyURL} to put in an SSH action (the client
     * ignores the URL's host and sends it on its control connection).
     */
    public static final String NOTIFY_PATH = "/machine/ssh/recording-failure";

    public SSHEventNotifyRequest {
        connectionId = Copies.text(connectionId);
        sshUser = Copies.text(sshUser);
        localUser = Copies.text(localUser);
        recordingAttempts = Copies.orEmpty(recordingAttempts);
    }

    /**
     * One recorder tried. Go: {@code tailcfg.SSHRecordingAttempt}.
     *
     * @param recorder its {@code ip:port} as Go's netip.AddrPort writes it ({@code ""} for the zero value)
     * @param failureMessage why it failed; {@code ""} when not said
     */
    public record SSHRecordingAttempt(
            @JsonProperty("Recorder") String recorder,
            @JsonProperty("FailureMessage") String failureMessage) {

        public SSHRecordingAttempt {
            recorder = Copies.text(recorder);
            failureMessage = Copies.text(failureMessage);
        }
    }
}
