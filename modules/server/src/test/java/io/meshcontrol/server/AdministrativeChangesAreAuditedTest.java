package io.meshcontrol.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.api.ApiJson;
import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.model.AuditEntry;
import io.meshcontrol.core.model.PostureIntegration;
import io.meshcontrol.core.model.Role;
import io.meshcontrol.core.state.Posture;
import io.meshcontrol.core.state.Settings;
import io.meshcontrol.core.state.Users;
import io.meshcontrol.core.testing.AuthKey;
import io.meshcontrol.core.testing.Machine;
import io.meshcontrol.core.testing.MovableClock;
import io.meshcontrol.core.testing.RefusingPort;
import io.meshcontrol.server.http.Route;
import io.meshcontrol.server.testing.TestServer;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Every administrative change is audited: each mutating {@code /api/v1} and {@code /api/v2} route the server
 * registers (taken from its route table, so that a route added later is walked too) is called once successfully,
 * and that call must write exactly one audit entry. A mutating route the walk has no call for fails it, as does a
 * route listed as changing nothing that is no longer served.
 */
class AdministrativeChangesAreAuditedTest {

    private static final JsonMapper JSON = ApiJson.mapper(false);
    private static final Set<String> MUTATING = Set.of("POST", "PUT", "PATCH", "DELETE");

    /** Routes that take a mutating method but change nothing an administrator manages, with the reason. */
    private static final Map<String, String> CHANGE_NOTHING = Map.ofEntries(
            Map.entry("POST /api/v1/policy/check", "checks a policy text without saving it"),
            Map.entry("POST /api/v1/policy/preview", "shows what a policy would give a node"),
            Map.entry("POST /api/v1/derp/refresh", "fetches the configured DERP map sources again"),
            Map.entry("POST /api/v1/webhook/{endpointId}/test", "sends a test event; nothing is changed"),
            Map.entry("POST /api/v2/webhooks/{endpointId}/test", "sends a test event; nothing is changed"),
            Map.entry("POST /api/v2/tailnet/{tailnet}/acl/validate", "checks a policy text without saving it"),
            Map.entry("POST /api/v2/tailnet/{tailnet}/acl/preview", "shows what a policy would allow"),
            Map.entry("POST /api/v2/oauth/token", "hands an OAuth client an access token (authentication)"),
            Map.entry("POST /api/v2/oauth/token-exchange", "hands a workload identity an access token"),
            Map.entry("PATCH /api/v2/tailnet/{tailnet}/contacts/{type}", "unsupported: always refused"),
            Map.entry("POST /api/v2/tailnet/{tailnet}/contacts/{type}/resend-verification-email",
                    "unsupported: always refused"),
            Map.entry("POST /api/v2/tailnet/{tailnet}/aws-external-id", "unsupported: always refused"),
            Map.entry("POST /api/v2/tailnet/{tailnet}/aws-external-id/{id}/validate-aws-trust-policy",
                    "unsupported: always refused"));

    /** One successful call of a route: its path with the targets made for it, and its body. */
    private record Call(String path, String body) {
    }

    @TempDir
    Path folder;
    private final MovableClock clock = MovableClock.startingAt2026();
    private final AtomicInteger serial = new AtomicInteger();
    private TestServer server;
    private String admin;
    private String nodeKey;
    /** Where the webhooks made here point: a loopback port nothing listens on, so no event leaves the machine. */
    private String hookUrl;

    @Test
    void everySuccessfulMutatingCallWritesOneAuditEntry() {
        try (TestServer started = TestServer.in(folder).clock(clock).set("debug.node_api_enabled", "true")
                .set("egress.allow_loopback_targets", "true").start()) {
            server = started;
            hookUrl = "http://127.0.0.1:" + closedPort() + "/hook";
            admin = server.localToken();
            server.network.policies().set(Caller.localAdmin(), """
                    {"groups": {"group:probe": []}, "tagOwners": {"tag:probe": []},
                     "acls": [{"action": "accept", "src": ["*"], "dst": ["*:*"]}]}""", null);
            server.network.users().create(Caller.localAdmin(), new Users.NewUser("holder", "", "", Role.MEMBER));
            nodeKey = AuthKey.forUser("holder").reusable().create(server.network);
            Map<String, Supplier<Call>> calls = calls();
            Set<String> served = new TreeSet<>();
            List<String> faults = new ArrayList<>();
            for (Route route : server.server.routes().list()) {
                String operation = route.method() + " " + route.template();
                if (!MUTATING.contains(route.method()) || !route.template().startsWith("/api/v")) {
                    continue;
                }
                served.add(operation);
                if (CHANGE_NOTHING.containsKey(operation)) {
                    continue;
                }
                Supplier<Call> made = calls.get(operation);
                if (made == null) {
                    faults.add(operation + ": no call for it here; add one to calls()");
                    continue;
                }
                Call call = made.get();
                long before = lastAuditId();
                HttpResponse<String> response = server.request(route.method(), call.path(), admin, call.body());
                if (response.statusCode() / 100 != 2) {
                    faults.add(operation + ": the call failed with " + response.statusCode() + " " + response.body());
                    continue;
                }
                List<String> written = auditedSince(before);
                if (written.size() != 1) {
                    faults.add(operation + ": wrote " + written.size() + " audit entries " + written);
                }
            }
            CHANGE_NOTHING.keySet().stream().filter(operation -> !served.contains(operation))
                    .forEach(operation -> faults.add(operation + " is listed as changing nothing but is not served"));
            assertEquals(List.of(), faults);
            assertTrue(served.size() > 80, "walked " + served.size() + " mutating routes");
        }
    }

    /** A call that succeeds for each mutating route, keyed "METHOD template"; each makes its own targets. */
    private Map<String, Supplier<Call>> calls() {
        String v2 = "/api/v2/tailnet/-";
        return Map.<String, Supplier<Call>>ofEntries(
                // /api/v1
                Map.entry("POST /api/v1/user", () -> new Call("/api/v1/user", "{\"name\": \"" + name() + "\"}")),
                Map.entry("PATCH /api/v1/user/{id}", () -> new Call("/api/v1/user/" + user(),
                        "{\"displayName\": \"Probe\"}")),
                Map.entry("POST /api/v1/user/{id}/approve", () -> new Call("/api/v1/user/" + userWaiting()
                        + "/approve", null)),
                Map.entry("DELETE /api/v1/user/{id}", () -> new Call("/api/v1/user/" + user(), null)),
                Map.entry("POST /api/v1/apikey", () -> new Call("/api/v1/apikey",
                        "{\"scopes\": [\"api_access_tokens:read\"]}")),
                Map.entry("POST /api/v1/apikey/{prefix}/expire", () -> new Call("/api/v1/apikey/" + apiKeyPrefix()
                        + "/expire", null)),
                Map.entry("POST /api/v1/apikey/{prefix}/rotate", () -> new Call("/api/v1/apikey/" + apiKeyPrefix()
                        + "/rotate", null)),
                Map.entry("POST /api/v1/apikey/bulk", () -> new Call("/api/v1/apikey/bulk",
                        "{\"action\": \"expire\", \"ids\": [\"" + apiKeyPrefix() + "\"]}")),
                Map.entry("POST /api/v1/preauthkey/bulk", () -> new Call("/api/v1/preauthkey/bulk",
                        "{\"action\": \"revoke\", \"ids\": [\"" + preAuthKey() + "\"]}")),
                Map.entry("POST /api/v1/node/bulk", () -> new Call("/api/v1/node/bulk",
                        "{\"action\": \"delete\", \"ids\": [\"" + node() + "\"]}")), // one entry per node: BulkActionsApiTest
                Map.entry("POST /api/v1/preauthkey", () -> new Call("/api/v1/preauthkey", "{\"user\": \"holder\"}")),
                Map.entry("DELETE /api/v1/preauthkey/{id}", () -> new Call("/api/v1/preauthkey/" + preAuthKey(),
                        null)),
                Map.entry("POST /api/v1/oauth-client", () -> new Call("/api/v1/oauth-client",
                        "{\"scopes\": [\"oauth_keys:read\"]}")),
                Map.entry("PATCH /api/v1/oauth-client/{clientId}", () -> new Call("/api/v1/oauth-client/"
                        + oauthClient(), "{\"description\": \"probe\"}")),
                Map.entry("DELETE /api/v1/oauth-client/{clientId}", () -> new Call("/api/v1/oauth-client/"
                        + oauthClient(), null)),
                Map.entry("POST /api/v1/webhook", () -> new Call("/api/v1/webhook",
                        "{\"url\": \"" + hookUrl + "\"}")),
                Map.entry("PATCH /api/v1/webhook/{endpointId}", () -> new Call("/api/v1/webhook/" + webhook(),
                        "{\"subscriptions\": [\"nodeCreated\"]}")),
                Map.entry("DELETE /api/v1/webhook/{endpointId}", () -> new Call("/api/v1/webhook/" + webhook(),
                        null)),
                Map.entry("POST /api/v1/webhook/{endpointId}/rotate", () -> new Call("/api/v1/webhook/" + webhook()
                        + "/rotate", null)),
                Map.entry("POST /api/v1/apps", () -> new Call("/api/v1/apps",
                        "{\"name\": \"" + name() + "\", \"domains\": [\"example.com\"]}")),
                Map.entry("PUT /api/v1/app/{id}", () -> new Call("/api/v1/app/" + app(),
                        "{\"name\": \"" + name() + "\", \"domains\": [\"example.org\"]}")),
                Map.entry("DELETE /api/v1/app/{id}", () -> new Call("/api/v1/app/" + app(), null)),
                Map.entry("POST /api/v1/access-request", () -> new Call("/api/v1/access-request",
                        accessRequestBody(user()))),
                Map.entry("POST /api/v1/access-request/{id}/approve", () -> new Call("/api/v1/access-request/"
                        + accessRequest() + "/approve", null)),
                Map.entry("POST /api/v1/access-request/{id}/deny", () -> new Call("/api/v1/access-request/"
                        + accessRequest() + "/deny", null)),
                Map.entry("POST /api/v1/access-request/{id}/revoke", () -> {
                    String id = accessRequest();
                    created("POST", "/api/v1/access-request/" + id + "/approve", null);
                    return new Call("/api/v1/access-request/" + id + "/revoke", null);
                }),
                Map.entry("POST /api/v1/node/{id}/rename", () -> new Call("/api/v1/node/" + node() + "/rename",
                        "{\"name\": \"" + name() + "\"}")),
                Map.entry("POST /api/v1/node/{id}/tags", () -> new Call("/api/v1/node/" + node() + "/tags",
                        "{\"tags\": [\"tag:probe\"]}")),
                Map.entry("POST /api/v1/node/{id}/expire", () -> new Call("/api/v1/node/" + node() + "/expire",
                        null)),
                Map.entry("POST /api/v1/node/{id}/key-expiry", () -> new Call("/api/v1/node/" + node()
                        + "/key-expiry", "{\"disabled\": true}")),
                Map.entry("POST /api/v1/node/{id}/approve", () -> new Call("/api/v1/node/" + nodeWaiting()
                        + "/approve", null)),
                Map.entry("POST /api/v1/node/{id}/suspend", () -> new Call("/api/v1/node/" + node() + "/suspend",
                        null)),
                Map.entry("POST /api/v1/node/{id}/unsuspend", () -> {
                    String id = node();
                    created("POST", "/api/v1/node/" + id + "/suspend", null);
                    return new Call("/api/v1/node/" + id + "/unsuspend", null);
                }),
                Map.entry("POST /api/v1/node/{id}/routes", () -> new Call("/api/v1/node/" + node() + "/routes",
                        "{\"routes\": [\"10.9.0.0/24\"]}")),
                Map.entry("POST /api/v1/node/{id}/global-exit-node", () -> new Call("/api/v1/node/" + exitNode()
                        + "/global-exit-node", "{\"enabled\": true}")),
                Map.entry("DELETE /api/v1/node/{id}", () -> new Call("/api/v1/node/" + node(), null)),
                Map.entry("POST /api/v1/auth/register", () -> new Call("/api/v1/auth/register",
                        "{\"user\": \"holder\", \"authId\": \"" + server.network.pendingLogins().start(
                                Machine.named(name()).request(), false) + "\"}")),
                Map.entry("DELETE /api/v1/auth/register/{authId}", () -> new Call("/api/v1/auth/register/"
                        + server.network.pendingLogins().start(Machine.named(name()).request(), false), null)),
                Map.entry("POST /api/v1/auth/approve", () -> new Call("/api/v1/auth/approve",
                        "{\"authId\": \"" + heldSshCheck() + "\"}")),
                Map.entry("POST /api/v1/auth/reject", () -> new Call("/api/v1/auth/reject",
                        "{\"authId\": \"" + heldSshCheck() + "\"}")),
                Map.entry("POST /api/v1/debug/node", () -> new Call("/api/v1/debug/node",
                        "{\"user\": \"holder\", \"name\": \"" + name() + "\"}")),
                Map.entry("PATCH /api/v1/settings", () -> new Call("/api/v1/settings",
                        "{\"devicesKeyDurationDays\": " + keyDurationDays() + "}")),
                Map.entry("PUT /api/v1/policy", () -> new Call("/api/v1/policy", "{\"policy\": " + JSON
                        .writeValueAsString(policy()) + "}")),
                Map.entry("PUT /api/v1/derp", () -> new Call("/api/v1/derp",
                        "{\"updateFrequency\": \"" + serial.incrementAndGet() + "h\"}")),
                Map.entry("DELETE /api/v1/derp", () -> {
                    created("PUT", "/api/v1/derp", "{\"updateFrequency\": \"" + serial.incrementAndGet() + "h\"}");
                    return new Call("/api/v1/derp", null);
                }),
                Map.entry("PUT /api/v1/dns", () -> new Call("/api/v1/dns",
                        "{\"nameservers\": [{\"address\": \"9.9.9." + serial.incrementAndGet() + "\"}]}")),
                // /api/v2
                Map.entry("POST /api/v2/tailnet/{tailnet}/keys", () -> new Call(v2 + "/keys", """
                        {"capabilities": {"devices": {"create": {"tags": ["tag:probe"]}}}}""")),
                Map.entry("PUT /api/v2/tailnet/{tailnet}/keys/{keyId}", () -> new Call(v2 + "/keys/"
                        + oauthClient(), "{\"keyType\": \"client\", \"scopes\": [\"oauth_keys:read\"], "
                        + "\"description\": \"probe\"}")),
                Map.entry("DELETE /api/v2/tailnet/{tailnet}/keys/{keyId}", () -> new Call(v2 + "/keys/"
                        + preAuthKey(), null)),
                Map.entry("POST /api/v2/tailnet/{tailnet}/acl", () -> new Call(v2 + "/acl", policy())),
                Map.entry("POST /api/v2/tailnet/{tailnet}/webhooks", () -> new Call(v2 + "/webhooks",
                        "{\"endpointUrl\": \"" + hookUrl + "\", \"subscriptions\": [\"nodeCreated\"]}")),
                Map.entry("PATCH /api/v2/webhooks/{endpointId}", () -> new Call("/api/v2/webhooks/" + webhook(),
                        "{\"subscriptions\": [\"nodeCreated\"]}")),
                Map.entry("DELETE /api/v2/webhooks/{endpointId}", () -> new Call("/api/v2/webhooks/" + webhook(),
                        null)),
                Map.entry("POST /api/v2/webhooks/{endpointId}/rotate", () -> new Call("/api/v2/webhooks/"
                        + webhook() + "/rotate", null)),
                Map.entry("PUT /api/v2/tailnet/{tailnet}/vip-services/{name}", () -> new Call(v2
                        + "/vip-services/svc:" + name(), "{\"ports\": [\"tcp:443\"]}")),
                Map.entry("DELETE /api/v2/tailnet/{tailnet}/vip-services/{name}", () -> {
                    String name = "svc:" + name();
                    created("PUT", v2 + "/vip-services/" + name, "{\"ports\": [\"tcp:443\"]}");
                    return new Call(v2 + "/vip-services/" + name, null);
                }),
                Map.entry("POST /api/v2/tailnet/{tailnet}/dns/nameservers", () -> new Call(v2 + "/dns/nameservers",
                        "{\"dns\": [\"9.9.8." + serial.incrementAndGet() + "\"]}")),
                Map.entry("POST /api/v2/tailnet/{tailnet}/dns/preferences", () -> new Call(v2 + "/dns/preferences",
                        "{\"magicDNS\": true}")),
                Map.entry("POST /api/v2/tailnet/{tailnet}/dns/searchpaths", () -> new Call(v2 + "/dns/searchpaths",
                        "{\"searchPaths\": [\"" + name() + ".example\"]}")),
                Map.entry("PATCH /api/v2/tailnet/{tailnet}/dns/split-dns", () -> new Call(v2 + "/dns/split-dns",
                        "{\"" + name() + ".example\": [\"9.9.7.1\"]}")),
                Map.entry("PUT /api/v2/tailnet/{tailnet}/dns/split-dns", () -> new Call(v2 + "/dns/split-dns",
                        "{\"" + name() + ".example\": [\"9.9.7.2\"]}")),
                Map.entry("POST /api/v2/tailnet/{tailnet}/dns/configuration", () -> new Call(v2
                        + "/dns/configuration", "{\"nameservers\": [{\"address\": \"9.9.6."
                        + serial.incrementAndGet() + "\"}], \"preferences\": {\"magicDNS\": true}}")),
                Map.entry("DELETE /api/v2/device/{id}", () -> new Call("/api/v2/device/" + node(), null)),
                Map.entry("POST /api/v2/device/{id}/authorized", () -> new Call("/api/v2/device/" + node()
                        + "/authorized", "{\"authorized\": false}")),
                Map.entry("POST /api/v2/device/{id}/name", () -> new Call("/api/v2/device/" + node() + "/name",
                        "{\"name\": \"" + name() + "\"}")),
                Map.entry("POST /api/v2/device/{id}/tags", () -> new Call("/api/v2/device/" + node() + "/tags",
                        "{\"tags\": [\"tag:probe\"]}")),
                Map.entry("POST /api/v2/device/{id}/key", () -> new Call("/api/v2/device/" + node() + "/key",
                        "{\"keyExpiryDisabled\": true}")),
                Map.entry("POST /api/v2/device/{id}/ip", () -> new Call("/api/v2/device/" + node() + "/ip",
                        "{\"ipv4\": \"100.99.0." + serial.incrementAndGet() + "\"}")),
                Map.entry("POST /api/v2/device/{id}/expire", () -> new Call("/api/v2/device/" + node()
                        + "/expire", null)),
                Map.entry("POST /api/v2/device/{id}/routes", () -> new Call("/api/v2/device/" + node() + "/routes",
                        "{\"routes\": [\"10.9.0.0/24\"]}")),
                Map.entry("POST /api/v2/device/{id}/attributes/{key}", () -> new Call("/api/v2/device/" + node()
                        + "/attributes/custom:probe", "{\"value\": \"yes\"}")),
                Map.entry("DELETE /api/v2/device/{id}/attributes/{key}", () -> {
                    String id = node();
                    created("POST", "/api/v2/device/" + id + "/attributes/custom:probe", "{\"value\": \"yes\"}");
                    return new Call("/api/v2/device/" + id + "/attributes/custom:probe", null);
                }),
                Map.entry("POST /api/v2/tailnet/{tailnet}/posture/integrations", () -> new Call(v2
                        + "/posture/integrations", "{\"provider\": \"" + postureProvider() + "\", "
                        + "\"clientSecret\": \"x\"}")),
                Map.entry("PATCH /api/v2/posture/integrations/{id}", () -> new Call("/api/v2/posture/integrations/"
                        + postureIntegration(), "{\"clientId\": \"" + name() + "\"}")),
                Map.entry("DELETE /api/v2/posture/integrations/{id}", () -> new Call("/api/v2/posture/integrations/"
                        + postureIntegration(), null)),
                Map.entry("PUT /api/v2/tailnet/{tailnet}/logging/{logType}/stream", () -> new Call(v2
                        + "/logging/configuration/stream", logStreamBody())),
                Map.entry("DELETE /api/v2/tailnet/{tailnet}/logging/{logType}/stream", () -> {
                    created("PUT", v2 + "/logging/configuration/stream", logStreamBody());
                    return new Call(v2 + "/logging/configuration/stream", null);
                }),
                Map.entry("POST /api/v1/posture-integration", () -> new Call("/api/v1/posture-integration",
                        "{\"provider\": \"" + postureProvider() + "\", \"clientSecret\": \"x\"}")),
                Map.entry("PATCH /api/v1/posture-integration/{integrationId}", () -> new Call(
                        "/api/v1/posture-integration/" + postureIntegration(), "{\"clientId\": \"" + name() + "\"}")),
                Map.entry("DELETE /api/v1/posture-integration/{integrationId}", () -> new Call(
                        "/api/v1/posture-integration/" + postureIntegration(), null)),
                Map.entry("PUT /api/v1/log-stream/{logType}", () -> new Call("/api/v1/log-stream/configuration",
                        logStreamBody())),
                Map.entry("DELETE /api/v1/log-stream/{logType}", () -> {
                    created("PUT", "/api/v1/log-stream/configuration", logStreamBody());
                    return new Call("/api/v1/log-stream/configuration", null);
                }),
                Map.entry("PUT /api/v1/service/{name}", () -> new Call("/api/v1/service/svc:" + name(),
                        "{\"ports\": [\"tcp:443\"]}")),
                Map.entry("DELETE /api/v1/service/{name}", () -> {
                    String name = "svc:" + name();
                    created("PUT", "/api/v1/service/" + name, "{\"ports\": [\"tcp:443\"]}");
                    return new Call("/api/v1/service/" + name, null);
                }),
                Map.entry("PATCH /api/v2/tailnet/{tailnet}/settings", () -> new Call(v2 + "/settings",
                        "{\"devicesKeyDurationDays\": " + keyDurationDays() + "}")));
    }

    private String name() {
        return "probe-" + serial.incrementAndGet();
    }

    /** A policy text that differs from the one in force, so that saving it changes something. */
    private String policy() {
        return """
                {"groups": {"group:probe": []}, "tagOwners": {"tag:probe": []},
                 "acls": [{"action": "accept", "src": ["*"], "dst": ["*:%d"]}]}""".formatted(serial.incrementAndGet());
    }

    /**
     * An SSH session held by a check rule between two new machines of holder's (the policy in force gets the rule,
     * keeping what the other calls need).
     */
    private String heldSshCheck() {
        server.network.policies().set(Caller.localAdmin(), policy().replaceFirst("}$", """
                , "ssh": [{"action": "check", "src": ["autogroup:member"], "dst": ["autogroup:self"],
                           "users": ["autogroup:nonroot"]}]}"""), null);
        io.meshcontrol.core.model.Node source = Machine.named(name()).join(server.network, nodeKey);
        io.meshcontrol.core.model.Node target = Machine.named(name()).join(server.network, nodeKey);
        return ((io.meshcontrol.core.state.SshChecks.Answer.Hold) server.network.sshChecks().request(
                target.machineKey(), source.id(), target.id(), "ubuntu",
                new io.meshcontrol.core.netmap.AccessControl(server.network.policies())::sshCheckPeriod)).authId();
    }

    /** A key lifetime other than the one in force. */
    private int keyDurationDays() {
        return 1 + serial.incrementAndGet() % 170;
    }

    private String user() {
        return created("POST", "/api/v1/user", "{\"name\": \"" + name() + "\"}").get("id").asString();
    }

    /** A user made by a first login while users approval is on. */
    private String userWaiting() {
        Settings settings = server.network.settings();
        settings.update(Caller.localAdmin(), new Settings.Change(null, true, null, null));
        String name = name();
        long id = server.network.users().logIn(new Users.PersonLogin("https://issuer.test", name, name, name, ""))
                .user().id();
        settings.update(Caller.localAdmin(), new Settings.Change(null, false, null, null));
        return Long.toString(id);
    }

    private String apiKeyPrefix() {
        return created("POST", "/api/v1/apikey", "{\"scopes\": [\"api_access_tokens:read\"]}").get("secret")
                .asString().split("-")[2];
    }

    private String preAuthKey() {
        return created("POST", "/api/v1/preauthkey", "{\"user\": \"holder\"}").get("preAuthKey").get("id").asString();
    }

    private String oauthClient() {
        return created("POST", "/api/v1/oauth-client", "{\"scopes\": [\"oauth_keys:read\"]}").get("oauthClient")
                .get("id").asString();
    }

    private String webhook() {
        return created("POST", "/api/v1/webhook", "{\"url\": \"" + hookUrl + "\"}").get("webhook").get("id")
                .asString();
    }

    private String app() {
        return created("POST", "/api/v1/apps", "{\"name\": \"" + name() + "\", \"domains\": [\"example.net\"]}")
                .get("id").asString();
    }

    private String accessRequestBody(String userId) {
        String user = server.network.users().byId(Long.parseLong(userId)).orElseThrow().name();
        return "{\"user\": \"" + user + "\", \"group\": \"group:probe\", \"reason\": \"probe\", \"duration\": \"1h\"}";
    }

    private String accessRequest() {
        return created("POST", "/api/v1/access-request", accessRequestBody(user())).get("id").asString();
    }

    private String node() {
        return Long.toString(Machine.named(name()).join(server.network, nodeKey).id());
    }

    /** A node that advertises both exit routes. */
    private String exitNode() {
        return Long.toString(Machine.named(name()).advertising("0.0.0.0/0", "::/0").join(server.network, nodeKey)
                .id());
    }

    /** A node that waits for device approval. */
    private String nodeWaiting() {
        Settings settings = server.network.settings();
        settings.update(Caller.localAdmin(), new Settings.Change(true, null, null, null));
        String id = node();
        settings.update(Caller.localAdmin(), new Settings.Change(false, null, null, null));
        return id;
    }

    /** Each provider holds one integration: one that holds none now. */
    private String postureProvider() {
        Set<String> taken = server.network.posture().integrations(Caller.localAdmin()).stream()
                .map(PostureIntegration::provider).collect(Collectors.toSet());
        return Posture.PROVIDERS.stream().filter(provider -> !taken.contains(provider)).findFirst().orElseThrow();
    }

    private String postureIntegration() {
        return created("POST", "/api/v2/tailnet/-/posture/integrations", "{\"provider\": \"" + postureProvider()
                + "\", \"clientSecret\": \"x\"}").get("id").asString();
    }

    private static String logStreamBody() {
        return "{\"destinationType\": \"http\", \"url\": \"https://logs.example/ingest\"}";
    }

    /** A setup call that must succeed; its answer. */
    private JsonNode created(String method, String path, String body) {
        HttpResponse<String> response = server.request(method, path, admin, body);
        assertTrue(response.statusCode() / 100 == 2, method + " " + path + ": " + response.statusCode() + " "
                + response.body());
        return response.body().isEmpty() ? JSON.createObjectNode() : JSON.readTree(response.body());
    }

    private static int closedPort() {
        return RefusingPort.number();
    }

    private long lastAuditId() {
        List<AuditEntry> newest = server.network.auditLog().recent(null, 1);
        return newest.isEmpty() ? 0 : newest.getFirst().id();
    }

    /** The actions of the entries written after {@code id}. */
    private List<String> auditedSince(long id) {
        return server.network.auditLog().recent(null, 100).stream().filter(entry -> entry.id() > id)
                .map(AuditEntry::action).toList();
    }
}
