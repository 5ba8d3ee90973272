package io.meshcontrol.core.event;

import io.meshcontrol.core.model.AccessRequest;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.model.Role;
import io.meshcontrol.core.model.User;
import java.time.Instant;
import java.util.List;

/**
 * A change that happened, published once after it was committed (never for a write that rolled back), for outward
 * effects: webhooks, audit, notifications. Map streaming does not read events; it follows the change feed
 * ({@code core.state.Snapshots}). The type names match the spec's webhook event types.
 */
public sealed interface MeshEvent {

    Instant at();

    /** The webhook event type name. */
    String type();

    record UserCreated(Instant at, User user, String actor) implements MeshEvent {
        @Override
        public String type() {
            return "userCreated";
        }
    }

    /** A user made by a first login while users approval is on: it waits for {@code svc users approve}. */
    record UserNeedsApproval(Instant at, User user) implements MeshEvent {
        @Override
        public String type() {
            return "userNeedsApproval";
        }
    }

    record UserApproved(Instant at, User user, String actor) implements MeshEvent {
        @Override
        public String type() {
            return "userApproved";
        }
    }

    record UserDeleted(Instant at, User user, String actor) implements MeshEvent {
        @Override
        public String type() {
            return "userDeleted";
        }
    }

    /** A user's name or profile changed; peers show the new profile. */
    record UserChanged(Instant at, User user, String actor) implements MeshEvent {
        @Override
        public String type() {
            return "userChanged";
        }
    }

    /** The policy was saved or reloaded. */
    record PolicyUpdated(Instant at, String actor) implements MeshEvent {
        @Override
        public String type() {
            return "policyUpdate";
        }
    }

    record UserRoleUpdated(Instant at, User user, Role oldRole, Role newRole, String actor) implements MeshEvent {
        @Override
        public String type() {
            return "userRoleUpdated";
        }
    }

    /**
     * Events of one access request (docs/access-requests.md); {@code request} is its state after the change.
     *
     * @param user the user who is to join the group
     * @param actor who made the change (for a created request: who filed it)
     */
    sealed interface AccessRequestEvent extends MeshEvent {
        AccessRequest request();

        User user();

        String actor();
    }

    record AccessRequestCreated(Instant at, AccessRequest request, User user, String actor)
            implements AccessRequestEvent {
        @Override
        public String type() {
            return "accessRequestCreated";
        }
    }

    /** Approved: the membership is in the policy from now until {@code request.expiresAt()}. */
    record AccessRequestApproved(Instant at, AccessRequest request, User user, String actor)
            implements AccessRequestEvent {
        @Override
        public String type() {
            return "accessRequestApproved";
        }
    }

    record AccessRequestDenied(Instant at, AccessRequest request, User user, String actor)
            implements AccessRequestEvent {
        @Override
        public String type() {
            return "accessRequestDenied";
        }
    }

    /** An approver ended a granted membership early. (A membership that runs out has no event of its own.) */
    record AccessRequestRevoked(Instant at, AccessRequest request, User user, String actor)
            implements AccessRequestEvent {
        @Override
        public String type() {
            return "accessRequestRevoked";
        }
    }

    /**
     * A node reported that an SSH session could not be recorded (the vendor's SSHEventNotifyRequest, posted to the
     * recording-failure notify URL of its SSH policy over its control connection).
     *
     * @param node the machine logged into, which reported it
     * @param event {@code rejected} (the session was refused), {@code terminated} (it was ended when recording
     *     broke) or {@code failed} (it went on unrecorded)
     * @param srcNode the node the session came from, or null when it is no longer known
     * @param srcNodeId the id the report gave for it
     * @param sshUser the user asked for on the SSH connection
     * @param localUser the local account it was mapped to
     * @param attempts the recorders tried, in order
     */
    record SshRecordingFailed(Instant at, Node node, String event, Node srcNode, long srcNodeId, String sshUser,
            String localUser, List<RecordingAttempt> attempts) implements NodeEvent {

        public SshRecordingFailed {
            attempts = List.copyOf(attempts);
        }

        @Override
        public String type() {
            return "sshRecordingFailed";
        }
    }

    /** One recorder an SSH session tried: its {@code ip:port}, and why it failed (empty when not said). */
    record RecordingAttempt(String recorder, String failureMessage) {
    }

    /** Events about one node; {@code node} is its state after the change (before it, for a deletion). */
    sealed interface NodeEvent extends MeshEvent {
        Node node();
    }

    record NodeCreated(Instant at, Node node) implements NodeEvent {
        @Override
        public String type() {
            return "nodeCreated";
        }
    }

    record NodeNeedsApproval(Instant at, Node node) implements NodeEvent {
        @Override
        public String type() {
            return "nodeNeedsApproval";
        }
    }

    record NodeApproved(Instant at, Node node) implements NodeEvent {
        @Override
        public String type() {
            return "nodeApproved";
        }
    }

    record NodeKeyExpired(Instant at, Node node) implements NodeEvent {
        @Override
        public String type() {
            return "nodeKeyExpired";
        }
    }

    /** An administrator suspended the node: it keeps its row but has no peers and is no one's peer. */
    record NodeSuspended(Instant at, Node node, String actor) implements NodeEvent {
        @Override
        public String type() {
            return "nodeSuspended";
        }
    }

    record NodeUnsuspended(Instant at, Node node, String actor) implements NodeEvent {
        @Override
        public String type() {
            return "nodeUnsuspended";
        }
    }

    record NodeDeleted(Instant at, Node node) implements NodeEvent {
        @Override
        public String type() {
            return "nodeDeleted";
        }
    }

    /**
     * A change peers must see that has no webhook type of its own (rename, tags, key rotation, re-login).
     *
     * @param what a short description for logs, e.g. "renamed"
     */
    record NodeChanged(Instant at, Node node, String what) implements NodeEvent {
        @Override
        public String type() {
            return "nodeChanged";
        }
    }

    /** A test event asked for one endpoint; it needs no subscription. */
    record WebhookTest(Instant at, String endpointId, String actor) implements MeshEvent {
        @Override
        public String type() {
            return "test";
        }
    }
}
