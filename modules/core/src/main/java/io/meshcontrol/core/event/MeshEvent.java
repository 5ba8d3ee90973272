package io.meshcontrol.core.event;

import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.model.Role;
import io.meshcontrol.core.model.User;
import java.time.Instant;

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
