package io.meshcontrol.server.v2;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.model.OAuthClient;
import io.meshcontrol.core.model.PreAuthKey;
import io.meshcontrol.core.model.User;
import io.meshcontrol.core.state.OAuthClients;
import io.meshcontrol.core.state.PreAuthKeys;
import io.meshcontrol.server.http.ApiRequest;
import io.meshcontrol.server.http.Reply;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * {@code /api/v2/tailnet/{tailnet}/keys}: auth keys (pre-auth keys, keyType {@code auth}), OAuth clients
 * ({@code client}) and federated identities ({@code federated}) in the vendor's Key shape
 * (shared/reference/vendor-api-v2.md section 5). Each kind needs its scope: {@code auth_keys}, {@code oauth_keys},
 * {@code federated_keys} (their {@code :read} forms to read); an access token may always read the client it came
 * from. Creating answers 200, as the vendor's node client requires, with the secret in that answer only.
 */
public final class KeyRoutes {

    private final PreAuthKeys authKeys;
    private final OAuthClients clients;
    private final Clock clock;

    public KeyRoutes(PreAuthKeys authKeys, OAuthClients clients, Clock clock) {
        this.authKeys = authKeys;
        this.clients = clients;
        this.clock = clock;
    }

    public void register(V2Routes routes) {
        routes.tailnet("GET", "/keys", this::list)
                .doc("auth_keys:read", "Auth keys, OAuth clients and federated identities the credential may read "
                        + "(oauth_keys:read, federated_keys:read for the latter two). API access tokens are not listed.")
                .answers(Answers.Keys.class);
        routes.tailnet("POST", "/keys", this::create)
                .doc("auth_keys", "Creates an auth key (keyType auth), an OAuth client (client, oauth_keys) or a "
                        + "federated identity (federated, federated_keys); the secret is shown here only.")
                .takes(Bodies.KeyRequest.class).answers(Answers.Key.class);
        routes.tailnet("GET", "/keys/{keyId}", request -> Reply.ok(read(request.caller(), request.pathParam("keyId"))))
                .doc("auth_keys:read", "One key; every credential may read the key it is.")
                .answers(Answers.Key.class);
        routes.tailnet("PUT", "/keys/{keyId}", this::replace)
                .doc("oauth_keys", "Replaces an OAuth client's or federated identity's settings (federated_keys for "
                        + "the latter); auth keys cannot be changed.")
                .takes(Bodies.KeyRequest.class).answers(Answers.Key.class);
        routes.tailnet("DELETE", "/keys/{keyId}", this::delete)
                .doc("auth_keys", "Revokes a key; a revoked auth key reads as invalid until it is reaped, a deleted "
                        + "OAuth client or federated identity is gone (404).")
                .answers(Answers.Empty.class);
    }

    private Reply list(ApiRequest request) {
        Caller caller = request.caller();
        boolean readsAuthKeys = caller.may(PreAuthKeys.READ_SCOPE);
        boolean readsClients = caller.may(OAuthClients.CLIENT_SCOPE + ":read")
                || caller.may(OAuthClients.FEDERATED_SCOPE + ":read");
        if (!readsAuthKeys && !readsClients) {
            throw MeshException.forbidden("listing keys needs auth_keys:read, oauth_keys:read or federated_keys:read");
        }
        List<Answers.Key> keys = new ArrayList<>();
        if (readsAuthKeys) {
            authKeys.list(caller).forEach(listed -> keys.add(authKey(listed.key(), listed.user(), null)));
        }
        if (readsClients) {
            clients.list(caller).stream().filter(client -> !client.isRevoked())
                    .forEach(client -> keys.add(client(client, null)));
        }
        return Reply.ok(new Answers.Keys(keys));
    }

    private Reply create(ApiRequest request) {
        JsonNode body = request.body(JsonNode.class);
        if (body == null || !body.isObject()) {
            throw MeshException.invalid("the body must be a JSON object (a Key)");
        }
        String keyType = text(body, "keyType");
        if (keyType == null || keyType.isEmpty() || keyType.equals("auth")) {
            return Reply.ok(createAuthKey(request.caller(), body));
        }
        if (!keyType.equals("client") && !keyType.equals("federated")) {
            throw MeshException.invalid("keyType must be auth, client or federated, got \"" + keyType
                    + "\" (API access tokens are made with svc apikeys or /api/v1/apikey)");
        }
        OAuthClients.Issued issued = clients.create(request.caller(), fields(body, keyType));
        return Reply.ok(client(issued.client(), issued.secret()));
    }

    private Answers.Key createAuthKey(Caller caller, JsonNode body) {
        JsonNode create = body.path("capabilities").path("devices").path("create");
        long expirySeconds = body.path("expirySeconds").asLong(0);
        if (expirySeconds < 0) {
            throw MeshException.invalid("expirySeconds must not be negative, got " + expirySeconds);
        }
        // A user's API key makes keys of that user; keys made through OAuth belong to the network, so carry tags.
        User owner = caller.owner();
        PreAuthKeys.Issued issued = authKeys.create(caller, new PreAuthKeys.NewKey(owner == null ? null : owner.name(),
                strings(create.path("tags")), create.path("reusable").asBoolean(false),
                create.path("ephemeral").asBoolean(false), create.path("preauthorized").asBoolean(false),
                text(body, "description"), expirySeconds == 0 ? null : Duration.ofSeconds(expirySeconds)));
        return authKey(issued.key(), issued.user(), issued.secret());
    }

    private Answers.Key read(Caller caller, String keyId) {
        if (isAuthKeyId(keyId)) {
            PreAuthKeys.Listed listed = authKeys.get(caller, Long.parseLong(keyId));
            return authKey(listed.key(), listed.user(), null);
        }
        return client(live(caller, keyId), null);
    }

    /**
     * A client or identity as the vendor's API knows it: a deleted one is gone (404), as the vendor forgets it, so
     * that its Terraform provider, which reads a 404 as "removed", plans to create one deleted out of band again.
     * Only auth keys read as invalid after their deletion. The server keeps revoked clients for {@code /api/v1}.
     */
    private OAuthClient live(Caller caller, String keyId) {
        OAuthClient client = clients.get(caller, keyId);
        if (client.isRevoked()) {
            throw MeshException.notFound("OAuth client or federated identity \"" + keyId + "\" was deleted");
        }
        return client;
    }

    /** Replaces an OAuth client or federated identity (the vendor's Set key); auth keys cannot be changed. */
    private Reply replace(ApiRequest request) {
        String keyId = request.pathParam("keyId");
        if (isAuthKeyId(keyId)) {
            throw MeshException.invalid("auth keys cannot be changed; delete the key and create another");
        }
        JsonNode body = request.body(JsonNode.class);
        if (body == null || !body.isObject()) {
            throw MeshException.invalid("the body must be a JSON object (a Key)");
        }
        return Reply.ok(client(clients.update(request.caller(), keyId, fields(body, text(body, "keyType"))), null));
    }

    /** Revokes an auth key (readable as invalid until reaped) or revokes a client or identity (gone from then on). */
    private Reply delete(ApiRequest request) {
        String keyId = request.pathParam("keyId");
        if (isAuthKeyId(keyId)) {
            authKeys.revoke(request.caller(), Long.parseLong(keyId));
        } else {
            clients.revoke(request.caller(), live(request.caller(), keyId).id());
        }
        return Reply.ok(Answers.Empty.INSTANCE);
    }

    /** Auth keys have numeric ids; OAuth client ids always contain a letter. */
    private static boolean isAuthKeyId(String keyId) {
        return !keyId.isEmpty() && keyId.length() <= 18 && keyId.chars().allMatch(Character::isDigit);
    }

    private Answers.Key authKey(PreAuthKey key, User user, String secret) {
        return new Answers.Key(Long.toString(key.id()), secret, "auth", key.description(),
                key.createdAt().toString(), key.expiresAt().toString(),
                Duration.between(key.createdAt(), key.expiresAt()).toSeconds(), null,
                key.revokedAt() == null ? null : key.revokedAt().toString(), !key.isValid(clock.instant()),
                new Answers.KeyCapabilities(new Answers.KeyDeviceCapabilities(new Answers.KeyDeviceCreateCapabilities(
                        key.reusable(), key.ephemeral(), key.preauthorized(), key.tags()))),
                null, null, user == null ? null : Long.toString(user.id()), null, null, null, null);
    }

    private static Answers.Key client(OAuthClient client, String secret) {
        OAuthClient.Trust trust = client.trust();
        return new Answers.Key(client.id(), secret, client.kind().wireName(), client.description(),
                client.createdAt().toString(), null, null, client.updatedAt().toString(),
                client.revokedAt() == null ? null : client.revokedAt().toString(), client.isRevoked(), null,
                client.scopes(), client.tags(), null, trust == null ? null : trust.issuer(),
                trust == null ? null : trust.audience(), trust == null ? null : trust.subject(),
                trust == null ? null : trust.customClaimRules());
    }

    private static OAuthClients.Fields fields(JsonNode body, String keyType) {
        Map<String, String> rules = null;
        JsonNode ruleNode = body.get("customClaimRules");
        if (ruleNode != null && !ruleNode.isNull()) {
            if (!ruleNode.isObject()) {
                throw MeshException.invalid("customClaimRules must be an object of claim name to pattern");
            }
            rules = new LinkedHashMap<>();
            for (Map.Entry<String, JsonNode> rule : ruleNode.properties()) {
                if (!rule.getValue().isString()) {
                    throw MeshException.invalid("customClaimRules." + rule.getKey() + " must be a string pattern");
                }
                rules.put(rule.getKey(), rule.getValue().asString());
            }
        }
        return new OAuthClients.Fields(keyType, nullableStrings(body.get("scopes")), nullableStrings(body.get("tags")),
                text(body, "description"), text(body, "issuer"), text(body, "audience"), text(body, "subject"), rules);
    }

    private static String text(JsonNode body, String field) {
        JsonNode node = body.get(field);
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isString()) {
            throw MeshException.invalid(field + " must be a string");
        }
        return node.asString();
    }

    private static List<String> nullableStrings(JsonNode node) {
        return node == null || node.isNull() ? null : strings(node);
    }

    private static List<String> strings(JsonNode node) {
        if (node.isMissingNode() || node.isNull()) {
            return List.of();
        }
        if (!node.isArray()) {
            throw MeshException.invalid("expected a list of strings, got " + node);
        }
        List<String> values = new ArrayList<>();
        for (JsonNode item : node) {
            if (!item.isString()) {
                throw MeshException.invalid("expected a list of strings, got " + node);
            }
            values.add(item.asString());
        }
        return values;
    }
}
