package io.meshcontrol.server.v1;

import io.meshcontrol.api.AccessRequestList;
import io.meshcontrol.api.AccessRequestRequest;
import io.meshcontrol.api.AccessRequestView;
import io.meshcontrol.core.GoDuration;
import io.meshcontrol.core.model.AccessRequest;
import io.meshcontrol.core.model.User;
import io.meshcontrol.core.state.AccessRequests;
import io.meshcontrol.core.state.Snapshots;
import io.meshcontrol.server.http.Reply;
import io.meshcontrol.server.http.Routes;

/**
 * {@code /api/v1/access-request}: file, list and show just-in-time access requests; approve, deny and revoke them
 * (docs/access-requests.md).
 */
public final class AccessRequestRoutes {

    private final AccessRequests requests;
    private final Snapshots snapshots;

    /** @param snapshots where user names are looked up */
    public AccessRequestRoutes(AccessRequests requests, Snapshots snapshots) {
        this.requests = requests;
        this.snapshots = snapshots;
    }

    public void register(Routes routes) {
        routes.add("POST", "/api/v1/access-request", request -> {
            AccessRequestRequest body = request.requiredBody(AccessRequestRequest.class);
            return Reply.created(view(requests.create(request.caller(), new AccessRequests.NewRequest(body.user(),
                    body.group(), body.reason(), body.duration()))));
        });
        routes.add("GET", "/api/v1/access-request", request -> Reply.ok(new AccessRequestList(
                requests.list(request.caller()).stream().map(this::view).toList())));
        routes.add("GET", "/api/v1/access-request/{id}",
                request -> Reply.ok(view(requests.get(request.caller(), request.pathId("id")))));
        routes.add("POST", "/api/v1/access-request/{id}/approve",
                request -> Reply.ok(view(requests.approve(request.caller(), request.pathId("id")))));
        routes.add("POST", "/api/v1/access-request/{id}/deny",
                request -> Reply.ok(view(requests.deny(request.caller(), request.pathId("id")))));
        routes.add("POST", "/api/v1/access-request/{id}/revoke",
                request -> Reply.ok(view(requests.revoke(request.caller(), request.pathId("id")))));
    }

    private AccessRequestView view(AccessRequest request) {
        String user = snapshots.current().user(request.userId()).map(User::name).orElse(null);
        return new AccessRequestView(Long.toString(request.id()), user, request.group(), request.reason(),
                GoDuration.format(request.duration()), request.state().wireName(), request.requestedBy(),
                request.createdAt(), request.decidedBy(), request.decidedAt(), request.expiresAt(), request.endedAt(),
                request.endedBy());
    }
}
