package io.meshcontrol.server.v2;

import io.meshcontrol.core.state.Snapshots;
import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.model.User;
import io.meshcontrol.core.state.NetworkSnapshot;
import io.meshcontrol.core.state.Users;
import io.meshcontrol.server.http.Reply;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * Users in the vendor's shape. Everyone here is a {@code member} of this network (no sharing between networks) and
 * {@code active}; {@code lastSeen} is the latest of their devices' (now while one is connected), left out when none
 * has been seen.
 */
final class UserResource {

    private final Users users;
    private final Snapshots snapshots;
    private final String tailnetId;
    private final Clock clock;

    /** @param snapshots whose devices a user has, and whether one is connected */
    UserResource(Users users, Snapshots snapshots, String tailnetId, Clock clock) {
        this.users = users;
        this.snapshots = snapshots;
        this.tailnetId = tailnetId;
        this.clock = clock;
    }

    void register(V2Routes v2) {
        v2.tailnet("GET", "/users", request -> {
            String type = request.query("type").orElse(null);
            String role = request.query("role").orElse(null);
            List<Answers.User> listed = users.list(request.caller()).stream()
                    .map(this::view)
                    .filter(u -> type == null || type.equals(u.type()))
                    .filter(u -> role == null || role.equals(u.role()))
                    .toList();
            return Reply.ok(new Answers.Users(listed));
        }).doc(Users.READ_SCOPE, "{\"users\":[...]}, filtered by type and role")
                .query("type", "role").answers(Answers.Users.class);
        v2.global("GET", "/users/{id}", request -> {
            String id = request.pathParam("id");
            if (id.isEmpty() || !id.chars().allMatch(Character::isDigit) || id.length() > 18) {
                throw MeshException.notFound("user not found: " + id);
            }
            return Reply.ok(view(users.require(request.caller(), Long.parseLong(id))));
        }).doc(Users.READ_SCOPE, "One user by id").answers(Answers.User.class);
    }

    private Answers.User view(User user) {
        NetworkSnapshot snapshot = snapshots.current();
        List<NetworkSnapshot.NodeEntry> devices = snapshot.entries().values().stream()
                .filter(e -> Long.valueOf(user.id()).equals(e.node().userId())).toList();
        boolean connected = devices.stream().anyMatch(NetworkSnapshot.NodeEntry::online);
        Instant lastSeen = devices.stream().map(e -> e.node().lastSeen()).filter(Objects::nonNull)
                .max(Instant::compareTo).orElse(null);
        return new Answers.User(Long.toString(user.id()),
                user.displayName().isEmpty() ? user.name() : user.displayName(), user.loginName(), "",
                tailnetId, user.createdAt(), "member", user.role().wireName(), "active", devices.size(),
                connected ? clock.instant() : lastSeen, connected);
    }
}
