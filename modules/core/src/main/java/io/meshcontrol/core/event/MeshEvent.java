package io.meshcontrol.core.event;

import io.meshcontrol.core.model.Role;
import io.meshcontrol.core.model.User;
import java.time.Instant;

/**
 * A change that happened, published after it was committed. Webhooks, map sessions and metrics subscribe;
 * the type names match the spec's webhook event types.
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

    record UserDeleted(Instant at, User user, String actor) implements MeshEvent {
        @Override
        public String type() {
            return "userDeleted";
        }
    }

    record UserRoleUpdated(Instant at, User user, Role oldRole, Role newRole, String actor) implements MeshEvent {
        @Override
        public String type() {
            return "userRoleUpdated";
        }
    }
}
