package io.meshcontrol.server.v2;

import io.meshcontrol.api.ApiJson;
import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.model.PostureAttribute;
import io.meshcontrol.core.routes.RoutePrefixes;
import io.meshcontrol.core.state.NetworkSnapshot;
import io.meshcontrol.core.state.Snapshots;
import io.meshcontrol.core.state.Nodes;
import io.meshcontrol.core.state.Posture;
import io.meshcontrol.core.state.RouteApprovals;
import io.meshcontrol.server.http.ApiRequest;
import io.meshcontrol.server.http.Reply;
import java.time.Instant;
import java.util.function.Function;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Devices: the network's nodes in the vendor's shape. A device is addressed by its number ({@code id}) or its
 * stable id ({@code nodeId}); the Terraform provider keeps whichever the answer echoes.
 */
final class DeviceResource {

    /** The vendor's zero time, which its Go client sends for "no expiry". */
    private static final Instant GO_ZERO_TIME = Instant.parse("0001-01-01T00:00:00Z");
    /** Turns a device into its JSON tree for filtering: times as the API writes them (ISO-8601). */
    private static final JsonMapper JSON = ApiJson.mapper(false);

    private final Nodes nodes;
    private final Posture posture;
    private final RouteApprovals routeApprovals;
    private final Snapshots snapshots;
    private final String baseDomain;
    /** Why peers under the tailnet lock refuse a node ({@code tailnetLockError}), or "" when they do not. */
    private final Function<Node, String> lockError;

    /** @param snapshots whether each device is connected, and its peers' view of it */
    DeviceResource(Nodes nodes, Posture posture, RouteApprovals routeApprovals, Snapshots snapshots,
            String baseDomain) {
        this(nodes, posture, routeApprovals, snapshots, baseDomain, node -> "");
    }

    DeviceResource(Nodes nodes, Posture posture, RouteApprovals routeApprovals, Snapshots snapshots,
            String baseDomain, Function<Node, String> lockError) {
        this.lockError = lockError;
        this.nodes = nodes;
        this.posture = posture;
        this.routeApprovals = routeApprovals;
        this.snapshots = snapshots;
        this.baseDomain = baseDomain;
    }

    void register(V2Routes v2) {
        v2.tailnet("GET", "/devices", this::list)
                .doc(Nodes.READ_SCOPE, "Lists devices: {\"devices\":[...]}. fields=all adds routes, connectivity, SSH, "
                        + "posture identity and distribution; any other parameter filters on a top-level field "
                        + "(exact match, all given values of a list field)")
                .query("fields").answers(Answers.Devices.class);
        v2.global("GET", "/device/{id}", request -> {
            return Reply.ok(view(node(request, Nodes.READ_SCOPE), allFields(request)));
        })
                .doc(Nodes.READ_SCOPE, "One device by id or nodeId; fields=all as for the list")
                .query("fields").answers(Answers.Device.class);
        v2.global("DELETE", "/device/{id}", request -> {
            nodes.delete(request.caller(), node(request, Nodes.WRITE_SCOPE).id());
            return Reply.ok(Answers.Empty.INSTANCE);
        }).doc(Nodes.WRITE_SCOPE, "Removes the device").answers(Answers.Empty.class);
        v2.global("POST", "/device/{id}/authorized", request -> {
            Node node = node(request, Nodes.WRITE_SCOPE);
            Bodies.Authorized body = request.requiredBody(Bodies.Authorized.class);
            return Reply.ok(view(nodes.authorize(request.caller(), node.id(),
                    required(body.authorized(), "authorized")), false));
        }).doc(Nodes.WRITE_SCOPE, "Device approval on or off ({\"authorized\":bool}); matters while device approval "
                + "is on").takes(Bodies.Authorized.class).answers(Answers.Device.class);
        v2.global("POST", "/device/{id}/name", request -> {
            Node node = node(request, Nodes.WRITE_SCOPE);
            Bodies.Name body = request.requiredBody(Bodies.Name.class);
            return Reply.ok(view(nodes.rename(request.caller(), node.id(),
                    shortName(required(body.name(), "name"))), false));
        }).doc(Nodes.WRITE_SCOPE, "Renames the device (its MagicDNS label; a full name under the base domain is "
                + "taken too)").takes(Bodies.Name.class).answers(Answers.Device.class);
        v2.global("POST", "/device/{id}/tags", request -> {
            Node node = node(request, Nodes.WRITE_SCOPE);
            Bodies.Tags body = request.requiredBody(Bodies.Tags.class);
            return Reply.ok(view(nodes.setTags(request.caller(), node.id(),
                    required(body.tags(), "tags")), false));
        }).doc(Nodes.WRITE_SCOPE, "Sets the tags; tagging a user's device hands it to the tags (400 on tags the "
                + "policy does not let the caller apply)").takes(Bodies.Tags.class).answers(Answers.Device.class);
        v2.global("POST", "/device/{id}/key", request -> {
            Node node = node(request, Nodes.WRITE_SCOPE);
            Bodies.Key body = request.requiredBody(Bodies.Key.class);
            return Reply.ok(view(nodes.setKeyExpiryDisabled(request.caller(), node.id(),
                    required(body.keyExpiryDisabled(), "keyExpiryDisabled")), false));
        }).doc(Nodes.WRITE_SCOPE, "Whether the device's key expires ({\"keyExpiryDisabled\":bool})")
                .takes(Bodies.Key.class).answers(Answers.Device.class);
        v2.global("POST", "/device/{id}/ip", request -> {
            Node node = node(request, Nodes.WRITE_SCOPE);
            Bodies.Ipv4 body = request.requiredBody(Bodies.Ipv4.class);
            return Reply.ok(view(nodes.setIpv4(request.caller(), node.id(),
                    required(body.ipv4(), "ipv4")), false));
        }).doc(Nodes.WRITE_SCOPE, "Sets the device's IPv4 address ({\"ipv4\":s}, with the IPv6 address that goes "
                + "with it): inside the network's IPv4 prefix (400 otherwise), not held by another device (409)")
                .takes(Bodies.Ipv4.class).answers(Answers.Device.class);
        v2.global("POST", "/device/{id}/expire", request -> Reply.ok(view(
                nodes.expire(request.caller(), node(request, Nodes.WRITE_SCOPE).id()), false)))
                .doc(Nodes.WRITE_SCOPE, "Expires the device's key now: it must log in again")
                .answers(Answers.Device.class);
        v2.global("GET", "/device/{id}/routes", request -> Reply.ok(routes(
                routeApprovals.get(request.caller(), node(request, RouteApprovals.READ_SCOPE).id()))))
                .doc(RouteApprovals.READ_SCOPE, "{\"advertisedRoutes\",\"enabledRoutes\"}")
                .answers(Answers.DeviceRoutes.class);
        v2.global("POST", "/device/{id}/routes", request -> {
            Node node = node(request, RouteApprovals.WRITE_SCOPE);
            Bodies.Routes body = request.requiredBody(Bodies.Routes.class);
            return Reply.ok(routes(routeApprovals.setApproved(request.caller(), node.id(),
                    required(body.routes(), "routes"))));
        }).doc(RouteApprovals.WRITE_SCOPE, "Replaces the approved (enabled) routes; a route may be approved before it is "
                + "advertised").takes(Bodies.Routes.class).answers(Answers.DeviceRoutes.class);
        v2.global("GET", "/device/{id}/attributes", this::attributes)
                .doc(Posture.ATTRIBUTES_READ_SCOPE, "The device's custom posture attributes: "
                        + "{\"attributes\":{},\"expiries\":{}}. Partial: the vendor's node:* attributes are not reported")
                .answers(Answers.Attributes.class);
        v2.global("POST", "/device/{id}/attributes/{key}", request -> {
            Node node = node(request, Posture.ATTRIBUTES_WRITE_SCOPE);
            Bodies.Attribute body = request.requiredBody(Bodies.Attribute.class);
            Instant expiry = body.expiry() == null || body.expiry().equals(GO_ZERO_TIME) ? null : body.expiry();
            posture.setAttribute(request.caller(), node.id(), new PostureAttribute(
                    request.pathParam("key"), body.value(), expiry, Objects.requireNonNullElse(body.comment(), "")));
            return Reply.ok(Answers.Empty.INSTANCE);
        }).doc(Posture.ATTRIBUTES_WRITE_SCOPE, "Sets a custom:<name> attribute (a string, number or boolean, "
                + "optional expiry and comment)").takes(Bodies.Attribute.class).answers(Answers.Empty.class);
        v2.global("DELETE", "/device/{id}/attributes/{key}", request -> {
            posture.deleteAttribute(request.caller(), node(request, Posture.ATTRIBUTES_WRITE_SCOPE).id(),
                    request.pathParam("key"));
            return Reply.ok(Answers.Empty.INSTANCE);
        }).doc(Posture.ATTRIBUTES_WRITE_SCOPE, "Removes a custom attribute").answers(Answers.Empty.class);
    }

    private Reply list(ApiRequest request) {
        List<Node> nodes = this.nodes.list(request.caller());
        Map<String, List<String>> filters = new LinkedHashMap<>();
        for (String name : request.queryNames()) {
            if (!name.equals("fields")) {
                filters.put(name, request.queryAll(name));
            }
        }
        boolean all = allFields(request);
        List<Answers.Device> devices = nodes.stream()
                .filter(node -> filters.isEmpty() || matches(view(node, true), filters))
                .map(node -> view(node, all))
                .toList();
        return Reply.ok(new Answers.Devices(devices));
    }

    /**
     * The vendor's filters: exact match on a top-level field (by its JSON name, so the device is seen as its JSON
     * tree); a list field must hold every value given.
     */
    private static boolean matches(Answers.Device device, Map<String, List<String>> filters) {
        JsonNode tree = JSON.valueToTree(device);
        for (Map.Entry<String, List<String>> filter : filters.entrySet()) {
            JsonNode value = tree.get(filter.getKey());
            if (value == null || value.isNull() || value.isObject()) {
                throw MeshException.invalid("cannot filter devices on \"" + filter.getKey()
                        + "\": filters name a top-level device field of simple or list type");
            }
            List<String> wanted = filter.getValue();
            boolean match = value.isArray()
                    ? wanted.stream().allMatch(w -> value.valueStream().anyMatch(item -> item.asString().equals(w)))
                    : wanted.stream().allMatch(w -> value.asString().equals(w));
            if (!match) {
                return false;
            }
        }
        return true;
    }

    private Reply attributes(ApiRequest request) {
        Map<String, Object> attributes = new LinkedHashMap<>();
        Map<String, Instant> expiries = new LinkedHashMap<>();
        for (PostureAttribute a : posture.attributes(request.caller(),
                node(request, Posture.ATTRIBUTES_READ_SCOPE).id())) {
            attributes.put(a.name(), a.value());
            if (a.expiry() != null) {
                expiries.put(a.name(), a.expiry());
            }
        }
        return Reply.ok(new Answers.Attributes(attributes, expiries));
    }

    private static boolean allFields(ApiRequest request) {
        String fields = request.query("fields").orElse("default");
        if (!fields.equals("all") && !fields.equals("default")) {
            throw MeshException.invalid("fields must be \"all\" or \"default\", got \"" + fields + "\"");
        }
        return fields.equals("all");
    }

    /**
     * The node a {@code {id}} names: its number or its stable id. The scope the operation needs is checked first, so
     * that a caller without it learns nothing about which ids exist (403, never 404); the rest of what may be done
     * with the node is the service's.
     */
    private Node node(ApiRequest request, String scope) {
        request.caller().require(scope);
        String id = request.pathParam("id");
        NetworkSnapshot snapshot = snapshots.current();
        Node node;
        if (!id.isEmpty() && id.chars().allMatch(Character::isDigit) && id.length() < 19) {
            node = snapshot.node(Long.parseLong(id)).orElse(null);
        } else {
            node = snapshot.nodes().values().stream().filter(n -> n.stableId().equals(id)).findFirst().orElse(null);
        }
        if (node == null) {
            throw MeshException.notFound("device not found: " + id);
        }
        return node;
    }

    private Answers.Device view(Node node, boolean allFields) {
        NetworkSnapshot snapshot = snapshots.current();
        return DeviceView.of(node, new DeviceView.Facts(snapshot.user(node.userId()).orElse(null),
                snapshot.isOnline(node.id()), baseDomain, lockError.apply(node)), allFields);
    }

    private static Answers.DeviceRoutes routes(Node node) {
        return new Answers.DeviceRoutes(
                RoutePrefixes.sorted(node.advertisedRoutes()).stream().map(Object::toString).toList(),
                RoutePrefixes.sorted(node.approvedRoutes()).stream().map(Object::toString).toList());
    }

    private String shortName(String name) {
        String suffix = "." + baseDomain;
        String trimmed = name.endsWith(".") ? name.substring(0, name.length() - 1) : name;
        return !baseDomain.isEmpty() && trimmed.endsWith(suffix)
                ? trimmed.substring(0, trimmed.length() - suffix.length()) : trimmed;
    }

    static <T> T required(T value, String field) {
        if (value == null) {
            throw MeshException.invalid("the body needs the field \"" + field + "\"");
        }
        return value;
    }
}
