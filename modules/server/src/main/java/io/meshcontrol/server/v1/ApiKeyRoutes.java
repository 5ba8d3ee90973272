package io.meshcontrol.server.v1;

import io.meshcontrol.api.ApiKeyList;
import io.meshcontrol.api.ApiKeyRequest;
import io.meshcontrol.api.IssuedApiKey;
import io.meshcontrol.core.state.ApiKeys;
import io.meshcontrol.server.http.Reply;
import io.meshcontrol.server.http.Routes;
import java.time.Clock;

/** {@code /api/v1/apikey}: create, list, expire, rotate. */
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
        routes.add("POST", "/api/v1/apikey/{prefix}/rotate", request -> {
            ApiKeyRequest body = request.body(ApiKeyRequest.class);
            String expiration = body == null ? null : body.expiration();
            return Reply.ok(issued(apiKeys.rotate(request.caller(), request.pathParam("prefix"),
                    Durations.parse("expiration", expiration))));
        });
    }

    private IssuedApiKey issued(ApiKeys.Issued issued) {
        return new IssuedApiKey(Views.apiKey(issued.key(), issued.owner(), clock.instant()), issued.secret(),
                issued.droppedScopes());
    }
}
