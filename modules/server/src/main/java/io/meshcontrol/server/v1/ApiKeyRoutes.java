package io.meshcontrol.server.v1;

import io.meshcontrol.api.ApiKeyList;
import io.meshcontrol.api.ApiKeyRequest;
import io.meshcontrol.api.IssuedApiKey;
import io.meshcontrol.core.state.ApiKeys;
import io.meshcontrol.server.http.Reply;
import io.meshcontrol.server.http.Routes;
import java.time.Clock;
import io.meshcontrol.api.BulkRequest;
import io.meshcontrol.api.BulkResult;
import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.state.BulkOutcome;

/** {@code /api/v1/apikey}: create, list, expire (one or many), rotate. */
public final class ApiKeyRoutes {

    private final ApiKeys apiKeys;
    private final Clock clock;

    public ApiKeyRoutes(ApiKeys apiKeys, Clock clock) {
        this.apiKeys = apiKeys;
        this.clock = clock;
    }

    public void register(Routes routes) {
        routes.add("GET", "/api/v1/apikey", request -> Reply.ok(new ApiKeyList(apiKeys.list(request.caller()).stream()
                .map(listed -> Views.apiKey(listed.key(), listed.owner(), clock.instant())).toList())));
        routes.add("POST", "/api/v1/apikey", request -> {
            ApiKeyRequest body = request.body(ApiKeyRequest.class);
            if (body == null) {
                body = new ApiKeyRequest(null, null, null, null);
            }
            ApiKeys.Issued issued = apiKeys.create(request.caller(), body.user(), body.scopes(), body.description(),
                    Durations.parse("expiration", body.expiration()));
            return Reply.created(issued(issued));
        });
        routes.add("POST", "/api/v1/apikey/{prefix}/expire", request -> {
            ApiKeys.Listed expired = apiKeys.expire(request.caller(), request.pathParam("prefix"));
            return Reply.ok(Views.apiKey(expired.key(), expired.owner(), clock.instant()));
        });
        routes.add("POST", "/api/v1/apikey/bulk", request -> {
            BulkRequest body = request.requiredBody(BulkRequest.class);
            requireAction(body, "expire");
            if (body.ids() == null) {
                throw MeshException.invalid("a bulk action needs the field \"ids\"");
            }
            BulkOutcome<String> outcome = apiKeys.expireAll(request.caller(), body.ids());
            return Reply.ok(new BulkResult("expire", outcome.changed(), outcome.unchanged()));
        });
        routes.add("POST", "/api/v1/apikey/{prefix}/rotate", request -> {
            ApiKeyRequest body = request.body(ApiKeyRequest.class);
            String expiration = body == null ? null : body.expiration();
            return Reply.ok(issued(apiKeys.rotate(request.caller(), request.pathParam("prefix"),
                    Durations.parse("expiration", expiration))));
        });
    }

    /** The one action a key list's bulk route takes; anything else is refused (400) naming it. */
    static void requireAction(BulkRequest body, String action) {
        if (!action.equals(body.action())) {
            throw MeshException.invalid("action must be " + action + ", got "
                    + (body.action() == null ? "none" : "\"" + body.action() + "\""));
        }
        if (body.tags() != null) {
            throw MeshException.invalid("tags are for bulk actions on nodes; " + action + " takes none");
        }
    }

    private IssuedApiKey issued(ApiKeys.Issued issued) {
        return new IssuedApiKey(Views.apiKey(issued.key(), issued.owner(), clock.instant()), issued.secret(),
                issued.droppedScopes());
    }
}
