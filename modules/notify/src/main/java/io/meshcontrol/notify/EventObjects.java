package io.meshcontrol.notify;

import io.meshcontrol.core.GoDuration;
import io.meshcontrol.core.event.MeshEvent;
import io.meshcontrol.core.model.AccessRequest;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.model.User;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import java.util.function.LongFunction;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Turns a {@link MeshEvent} into the event object receivers get: {@code timestamp} (ISO 8601 UTC), {@code version}
 * 1, {@code type}, {@code tailnet}, {@code message} and {@code data} with the spec's fields for its kind (an empty
 * object for {@code policyUpdate} and {@code test}).
 */
final class EventObjects {

    static final JsonMapper JSON = JsonMapper.builder().build();

    private final Tailnet tailnet;
    private final LongFunction<Optional<User>> users;

    /** @param users the owner of a node by user id, for {@code managedBy} */
    EventObjects(Tailnet tailnet, LongFunction<Optional<User>> users) {
        this.tailnet = tailnet;
        this.users = users;
    }

    ObjectNode render(MeshEvent event) {
        ObjectNode o = JSON.createObjectNode();
        o.put("timestamp", DateTimeFormatter.ISO_INSTANT.format(event.at().truncatedTo(ChronoUnit.MILLIS)));
        o.put("version", 1);
        o.put("type", event.type());
        o.put("tailnet", tailnet.name());
        ObjectNode data = JSON.createObjectNode();
        o.put("message", describe(event, data));
        o.set("data", data);
        return o;
    }

    /** The event's message, filling {@code data}. */
    private String describe(MeshEvent event, ObjectNode data) {
        return switch (event) {
            case MeshEvent.UserRoleUpdated e -> {
                user(e.user(), data);
                data.putArray("oldRoles").add(e.oldRole().wireName());
                data.putArray("newRoles").add(e.newRole().wireName());
                data.put("actor", e.actor());
                yield "User " + e.user().loginName() + "'s role changed from " + e.oldRole().wireName() + " to "
                        + e.newRole().wireName();
            }
            case MeshEvent.UserCreated e -> user(e.user(), data, "created");
            case MeshEvent.UserNeedsApproval e -> user(e.user(), data, "needs approval");
            case MeshEvent.UserApproved e -> user(e.user(), data, "approved");
            case MeshEvent.UserDeleted e -> user(e.user(), data, "deleted");
            case MeshEvent.PolicyUpdated e -> "The policy was updated";
            case MeshEvent.WebhookTest e -> "This is a test event from " + tailnet.name();
            case MeshEvent.AccessRequestEvent e -> accessRequest(e, data);
            case MeshEvent.SshRecordingFailed e -> {
                node(e.node(), data);
                data.put("event", e.event());
                data.put("srcNode", e.srcNode() == null ? Long.toString(e.srcNodeId()) : e.srcNode().stableId());
                data.put("sshUser", e.sshUser());
                data.put("localUser", e.localUser());
                var attempts = data.putArray("attempts");
                e.attempts().forEach(a -> attempts.addObject().put("recorder", a.recorder())
                        .put("failureMessage", a.failureMessage()));
                yield "An SSH session to " + deviceName(e.node()) + " as " + e.localUser() + " could not be recorded ("
                        + e.event() + ")";
            }
            case MeshEvent.NodeEvent e -> {
                node(e.node(), data);
                yield "Node " + deviceName(e.node()) + " " + switch (e.type()) {
                    case "nodeCreated" -> "was created";
                    case "nodeNeedsApproval" -> "needs approval";
                    case "nodeApproved" -> "was approved";
                    case "nodeKeyExpired" -> "has an expired key";
                    case "nodeDeleted" -> "was deleted";
                    case "nodeSuspended" -> "was suspended";
                    case "nodeUnsuspended" -> "is no longer suspended";
                    default -> "changed (" + e.type() + ")";
                };
            }
            default -> event.type();
        };
    }

    /**
     * Access request events (the spec leaves their data open; docs/access-requests.md): the user's fields, then the
     * request's id, group, reason, duration, state, who acted and, once approved, when the membership ends.
     */
    private String accessRequest(MeshEvent.AccessRequestEvent e, ObjectNode data) {
        AccessRequest request = e.request();
        user(e.user(), data);
        data.put("requestID", Long.toString(request.id()));
        data.put("group", request.group());
        data.put("reason", request.reason());
        data.put("duration", GoDuration.format(request.duration()));
        data.put("state", request.state().wireName());
        data.put("actor", e.actor());
        if (request.expiresAt() != null) {
            data.put("expiration", DateTimeFormatter.ISO_INSTANT.format(request.expiresAt()));
        }
        String what = switch (e) {
            case MeshEvent.AccessRequestCreated c -> "asked to join ";
            case MeshEvent.AccessRequestApproved a -> "was granted ";
            case MeshEvent.AccessRequestDenied d -> "was refused ";
            case MeshEvent.AccessRequestRevoked r -> "no longer has ";
        };
        return "User " + e.user().loginName() + " " + what + request.group();
    }

    private String user(User user, ObjectNode data, String what) {
        user(user, data);
        return "User " + user.loginName() + " " + what;
    }

    private void user(User user, ObjectNode data) {
        data.put("user", user.loginName());
        data.put("url", tailnet.serverUrl() + "/admin/users");
        data.put("userID", Long.toString(user.id()));
        if (user.displayName() != null && !user.displayName().isEmpty()) {
            data.put("displayName", user.displayName());
        }
    }

    private void node(Node node, ObjectNode data) {
        data.put("nodeID", node.stableId());
        data.put("deviceName", deviceName(node));
        data.put("managedBy", node.userId() == null ? "tagged-devices"
                : users.apply(node.userId()).map(User::loginName).orElse(""));
        data.put("url", tailnet.serverUrl() + "/admin/machines/" + node.stableId());
        if (node.keyExpiry() != null) {
            data.put("expiration", DateTimeFormatter.ISO_INSTANT.format(node.keyExpiry()));
        }
        var addresses = data.putArray("addresses");
        if (node.ipv4() != null) {
            addresses.add(node.ipv4());
        }
        if (node.ipv6() != null) {
            addresses.add(node.ipv6());
        }
        var tags = data.putArray("tags");
        node.tags().forEach(tags::add);
    }

    /** The MagicDNS name: the node's label under the base domain (the bare label when there is none). */
    private String deviceName(Node node) {
        return tailnet.baseDomain().isEmpty() ? node.givenName() : node.givenName() + "." + tailnet.baseDomain();
    }
}
