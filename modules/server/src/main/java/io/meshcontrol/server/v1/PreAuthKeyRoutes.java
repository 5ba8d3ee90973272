package io.meshcontrol.server.v1;

import io.meshcontrol.api.IssuedPreAuthKey;
import io.meshcontrol.api.PreAuthKeyList;
import io.meshcontrol.api.PreAuthKeyRequest;
import io.meshcontrol.core.state.PreAuthKeys;
import io.meshcontrol.server.http.Reply;
import io.meshcontrol.server.http.Routes;
import java.time.Clock;
import io.meshcontrol.api.BulkRequest;
import io.meshcontrol.api.BulkResult;
import io.meshcontrol.core.state.BulkOutcome;

/** {@code /api/v1/preauthkey}: create, list, read, revoke (DELETE one, or many with bulk). */
public final class PreAuthKeyRoutes {

    private final PreAuthKeys keys;
    private final Clock clock;

    public PreAuthKeyRoutes(PreAuthKeys keys, Clock clock) {
        this.keys = keys;
        this.clock = clock;
    }

    public void register(Routes routes) {
        routes.add("GET", "/api/v1/preauthkey", request -> Reply.ok(new PreAuthKeyList(keys.list(request.caller()).stream()
                .map(listed -> Views.preAuthKey(listed.key(), listed.user(), clock.instant())).toList())));
        routes.add("POST", "/api/v1/preauthkey", request -> {
            PreAuthKeyRequest body = request.requiredBody(PreAuthKeyRequest.class);
            PreAuthKeys.Issued issued = keys.create(request.caller(), new PreAuthKeys.NewKey(body.user(), body.tags(),
                    isTrue(body.reusable()), isTrue(body.ephemeral()), isTrue(body.preauthorized()), body.description(),
                    Durations.parse("expiration", body.expiration())));
            return Reply.created(new IssuedPreAuthKey(Views.preAuthKey(issued.key(), issued.user(), clock.instant()),
                    issued.secret()));
        });
        routes.add("POST", "/api/v1/preauthkey/bulk", request -> {
            BulkRequest body = request.requiredBody(BulkRequest.class);
            ApiKeyRoutes.requireAction(body, "revoke");
            BulkOutcome<Long> outcome = keys.revokeAll(request.caller(), BulkIds.numbers(body.ids()));
            return Reply.ok(new BulkResult("revoke", BulkIds.texts(outcome.changed()),
                    BulkIds.texts(outcome.unchanged())));
        });
        routes.add("GET", "/api/v1/preauthkey/{id}", request -> {
            PreAuthKeys.Listed listed = keys.get(request.caller(), request.pathId("id"));
            return Reply.ok(Views.preAuthKey(listed.key(), listed.user(), clock.instant()));
        });
        routes.add("DELETE", "/api/v1/preauthkey/{id}", request -> {
            keys.revoke(request.caller(), request.pathId("id"));
            return Reply.noContent();
        });
    }

    private static boolean isTrue(Boolean value) {
        return Boolean.TRUE.equals(value);
    }
}
