package io.meshcontrol.server.v1;

import io.meshcontrol.api.UserList;
import io.meshcontrol.api.UserRequest;
import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.model.Role;
import io.meshcontrol.core.state.Users;
import io.meshcontrol.server.http.Reply;
import io.meshcontrol.server.http.Routes;
import java.util.List;

/** {@code /api/v1/user}: list, find by name, create, rename, change role, approve, delete. */
public final class UserRoutes {

    private final Users users;

    public UserRoutes(Users users) {
        this.users = users;
    }

    public void register(Routes routes) {
        routes.add("GET", "/api/v1/user", request -> {
            var name = request.query("name");
            if (name.isPresent()) {
                request.caller().require(Users.READ_SCOPE);
                var user = users.byName(name.get())
                        .orElseThrow(() -> MeshException.notFound("no user \"" + name.get() + "\""));
                return Reply.ok(new UserList(List.of(Views.user(user))));
            }
            return Reply.ok(new UserList(users.list(request.caller()).stream().map(Views::user).toList()));
        });
        routes.add("POST", "/api/v1/user", request -> {
            UserRequest body = request.requiredBody(UserRequest.class);
            var created = users.create(request.caller(),
                    new Users.NewUser(body.name(), body.displayName(), body.email(), role(body.role())));
            return Reply.created(Views.user(created));
        });
        routes.add("GET", "/api/v1/user/{id}", request ->
                Reply.ok(Views.user(users.require(request.caller(), request.pathId("id")))));
        routes.add("PATCH", "/api/v1/user/{id}", request -> {
            UserRequest body = request.requiredBody(UserRequest.class);
            var updated = users.update(request.caller(), request.pathId("id"),
                    new Users.UserChange(body.name(), body.displayName(), body.email(), role(body.role())));
            return Reply.ok(Views.user(updated));
        });
        routes.add("POST", "/api/v1/user/{id}/approve", request ->
                Reply.ok(Views.user(users.approve(request.caller(), request.pathId("id")))));
        routes.add("DELETE", "/api/v1/user/{id}", request -> {
            users.delete(request.caller(), request.pathId("id"));
            return Reply.noContent();
        });
    }

    private static Role role(String wireName) {
        return wireName == null ? null : Role.fromWireName(wireName);
    }
}
