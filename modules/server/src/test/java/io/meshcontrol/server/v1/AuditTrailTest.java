package io.meshcontrol.server.v1;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.api.ApiKeyRequest;
import io.meshcontrol.api.AuditEntryView;
import io.meshcontrol.api.AuditPage;
import io.meshcontrol.api.AuditQuery;
import io.meshcontrol.api.IssuedApiKey;
import io.meshcontrol.api.MeshClient;
import io.meshcontrol.api.UserRequest;
import io.meshcontrol.core.model.AuditEntry;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.testing.AuthKey;
import io.meshcontrol.core.testing.Machine;
import io.meshcontrol.server.testing.TestServer;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Every administrative change through {@code /api/v1} and {@code /api/v2} leaves an audit entry saying who did it,
 * from which address, what and to what, with old and new values where a field changed; and the log reads back
 * through {@code GET /api/v1/audit} with its filters and pages.
 */
class AuditTrailTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @TempDir
    Path folder;
    TestServer server;
    String admin;

    @BeforeEach
    void start() {
        server = TestServer.in(folder).set("egress.allow_loopback_targets", "true").start();
        admin = server.localToken();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    /** Sends the request, checks it succeeded, and returns the one audit entry it wrote. */
    private AuditEntry change(String method, String path, String body) {
        long before = newestId();
        HttpResponse<String> response = server.request(method, path, admin, body);
        assertTrue(response.statusCode() / 100 == 2, method + " " + path + ": " + response.body());
        List<AuditEntry> written = server.network.auditLog().recent(null, 50).stream()
                .filter(e -> e.id() > before).toList();
        assertEquals(1, written.size(), method + " " + path + " writes one entry: " + written);
        AuditEntry entry = written.getFirst();
        assertEquals("local-admin", entry.actor(), "who");
        assertEquals("127.0.0.1", entry.source(), "from where");
        return entry;
    }

    private long newestId() {
        List<AuditEntry> newest = server.network.auditLog().recent(null, 1);
        return newest.isEmpty() ? 0 : newest.getFirst().id();
    }

    private static JsonNode json(HttpResponse<String> response) {
        return JSON.readTree(response.body());
    }

    @Test
    void everyAdministrativeChangeIsAudited() {
        AuditEntry user = change("POST", "/api/v1/user", "{\"name\":\"odin\",\"email\":\"odin@example.com\"}");
        assertEquals("user.create", user.action());
        String userId = user.target();
        AuditEntry role = change("PATCH", "/api/v1/user/" + userId, "{\"role\":\"admin\"}");
        assertEquals("user.update", role.action());
        assertEquals(Map.of("name", "odin", "oldRole", "member", "newRole", "admin"), role.details());

        AuditEntry key = change("POST", "/api/v1/apikey", "{\"description\":\"ci\"}");
        assertEquals("apikey.create", key.action());
        String prefix = key.details().get("prefix");
        AuditEntry rotate = change("POST", "/api/v1/apikey/" + prefix + "/rotate", "{}");
        assertEquals("apikey.rotate", rotate.action());
        assertEquals(prefix, rotate.details().get("oldPrefix"));
        String newPrefix = rotate.details().get("newPrefix");
        assertNotNull(newPrefix);
        assertFalse(newPrefix.equals(prefix));
        assertEquals("apikey.expire", change("POST", "/api/v1/apikey/" + newPrefix + "/expire", "{}").action());

        AuditEntry authKey = change("POST", "/api/v1/preauthkey", "{\"user\":\"odin\",\"reusable\":true}");
        assertEquals("preauthkey.create", authKey.action());
        assertEquals("preauthkey.revoke",
                change("DELETE", "/api/v1/preauthkey/" + authKey.target(), null).action());

        AuditEntry client = change("POST", "/api/v1/oauth-client", "{\"scopes\":[\"dns:read\"]}");
        assertEquals("oauthclient.create", client.action());
        AuditEntry clientUpdate = change("PATCH", "/api/v1/oauth-client/" + client.target(),
                "{\"scopes\":[\"dns\"]}");
        assertEquals("oauthclient.update", clientUpdate.action());
        assertEquals("dns:read", clientUpdate.details().get("oldScopes"));
        assertEquals("dns", clientUpdate.details().get("newScopes"));
        assertEquals("oauthclient.revoke", change("DELETE", "/api/v1/oauth-client/" + client.target(), null).action());

        AuditEntry settings = change("PATCH", "/api/v1/settings", "{\"devicesApprovalOn\":true}");
        assertEquals("settings.update", settings.action());
        assertEquals(Map.of("oldDevicesApprovalOn", "false", "newDevicesApprovalOn", "true"), settings.details());

        AuditEntry policy = change("PUT", "/api/v1/policy", "{\"policy\":\"{\\\"acls\\\":[]}\"}");
        assertEquals("policy.update", policy.action());
        assertTrue(policy.details().containsKey("newEtag"));

        Node node = Machine.named("laptop").advertising("10.0.0.0/8")
                .join(server.network, AuthKey.forUser("odin").preauthorized().create(server.network));
        String nodePath = "/api/v1/node/" + node.id();
        AuditEntry rename = change("POST", nodePath + "/rename", "{\"name\":\"desk\"}");
        assertEquals("node.update", rename.action());
        assertEquals("laptop", rename.details().get("oldName"));
        assertEquals("desk", rename.details().get("newName"));
        AuditEntry routes = change("POST", nodePath + "/routes", "{\"routes\":[\"10.0.0.0/8\"]}");
        assertEquals("node.routes", routes.action());
        assertEquals("[10.0.0.0/8]", routes.details().get("newApprovedRoutes"));
        assertTrue(change("POST", nodePath + "/expire", "{}").details().containsKey("newKeyExpiry"));
        assertEquals("true", change("POST", nodePath + "/suspend", "{}").details().get("newSuspended"));
        assertEquals("false", change("POST", nodePath + "/unsuspend", "{}").details().get("newSuspended"));

        String device = "/api/v2/device/" + node.id();
        assertEquals("box", change("POST", device + "/name", "{\"name\":\"box\"}").details().get("newName"));
        AuditEntry keyExpiry = change("POST", device + "/key", "{\"keyExpiryDisabled\":true}");
        assertEquals("", keyExpiry.details().get("newKeyExpiry"), "the expiry was cleared");
        change("POST", nodePath + "/expire", "{}");
        AuditEntry noExpiry = change("POST", nodePath + "/key-expiry", "{\"disabled\":true}");
        assertEquals("node.update", noExpiry.action());
        assertEquals("", noExpiry.details().get("newKeyExpiry"), "the expiry was cleared");
        assertEquals("node.update", change("POST", nodePath + "/key-expiry", "{\"disabled\":false}").action());
        AuditEntry unauthorized = change("POST", device + "/authorized", "{\"authorized\":false}");
        assertEquals(Map.of("name", "box", "oldAuthorized", "true", "newAuthorized", "false"), unauthorized.details());

        String v2 = "/api/v2/tailnet/-";
        assertEquals("dns.update", change("POST", v2 + "/dns/nameservers", "{\"dns\":[\"9.9.9.9\"]}").action());
        assertEquals("service.create", change("PUT", v2 + "/vip-services/svc:web",
                "{\"name\":\"svc:web\",\"ports\":[\"tcp:443\"]}").action());
        AuditEntry service = change("PUT", v2 + "/vip-services/svc:web",
                "{\"name\":\"svc:web\",\"ports\":[\"tcp:80\"]}");
        assertEquals("service.update", service.action());
        assertEquals("[tcp:443]", service.details().get("oldPorts"));
        assertEquals("service.delete", change("DELETE", v2 + "/vip-services/svc:web", null).action());
        AuditEntry posture = change("POST", v2 + "/posture/integrations",
                "{\"provider\":\"falcon\",\"clientSecret\":\"s\"}");
        assertEquals("posture.integration.create", posture.action());
        assertEquals("posture.integration.delete",
                change("DELETE", "/api/v2/posture/integrations/" + posture.target(), null).action());
        assertEquals("posture.attribute.set", change("POST", "/api/v2/device/" + node.id() + "/attributes/custom:x",
                "{\"value\":\"y\"}").action());
        assertEquals("posture.attribute.delete",
                change("DELETE", "/api/v2/device/" + node.id() + "/attributes/custom:x", null).action());
        AuditEntry stream = change("PUT", v2 + "/logging/configuration/stream",
                "{\"destinationType\":\"http\",\"url\":\"https://user:pw@logs.example/in?token=t\",\"token\":\"t\"}");
        assertEquals("logstream.create", stream.action());
        assertEquals("https://logs.example/in", stream.details().get("url"), "no user info or query in the log");
        assertEquals("logstream.delete", change("DELETE", v2 + "/logging/configuration/stream", null).action());
        assertEquals("settings.update", change("PATCH", v2 + "/settings", "{\"usersApprovalOn\":true}").action());

        assertEquals("node.delete", change("DELETE", nodePath, null).action());
        assertEquals("user.delete", change("DELETE", "/api/v1/user/" + userId, null).action());
    }

    @Test
    void readsAreNotAudited() {
        long before = newestId();
        for (String path : List.of("/api/v1/user", "/api/v1/apikey", "/api/v1/node", "/api/v1/settings",
                "/api/v1/policy", "/api/v1/audit", "/api/v2/tailnet/-/devices")) {
            assertEquals(200, server.request("GET", path, admin, null).statusCode(), path);
        }
        assertEquals(before, newestId());
    }

    @Test
    void theLogReadsBackFilteredAndPaged() {
        MeshClient client = server.client(admin);
        for (int i = 0; i < 5; i++) {
            client.createUser(new UserRequest("user" + i, null, "user" + i + "@example.com", null));
        }
        IssuedApiKey key = client.createApiKey(new ApiKeyRequest(null, List.of(), "ci", null));
        client.rotateApiKey(key.apiKey().prefix(), null);

        AuditPage first = client.audit(new AuditQuery(null, "user.", null, null, null, null, 2));
        assertEquals(List.of("user4", "user3"), first.entries().stream().map(e -> e.details().get("name")).toList());
        assertNotNull(first.next());
        List<String> names = new ArrayList<>();
        Long next = null;
        do {
            AuditPage page = client.audit(new AuditQuery(null, "user.create", null, null, null, next, 2));
            page.entries().forEach(e -> names.add(e.details().get("name")));
            next = page.next();
        } while (next != null);
        assertEquals(List.of("user4", "user3", "user2", "user1", "user0"), names, "every entry once, newest first");

        AuditEntryView rotation = client.audit(new AuditQuery("local-admin", "apikey.rotate", null, null, null,
                null, null)).entries().getFirst();
        assertEquals(key.apiKey().prefix(), rotation.details().get("oldPrefix"));
        assertEquals("127.0.0.1", rotation.source());
        assertEquals(1, client.audit(new AuditQuery(null, null, rotation.target(), null, null, null, null))
                .entries().stream().filter(e -> e.action().equals("apikey.rotate")).count());

        String at = rotation.time().toString();
        assertTrue(client.audit(new AuditQuery(null, null, null, null, at, null, null)).entries().stream()
                .noneMatch(e -> e.id() >= rotation.id()), "until is exclusive");
        List<AuditEntryView> since = client.audit(new AuditQuery(null, null, null, at, null, null, null)).entries();
        assertTrue(since.stream().anyMatch(e -> e.id() == rotation.id()), "since is inclusive");
        assertTrue(since.stream().noneMatch(e -> e.time().isBefore(rotation.time())));
        assertNull(client.audit(new AuditQuery("nobody", null, null, null, null, null, null)).next());
        assertTrue(client.audit(new AuditQuery("nobody", null, null, null, null, null, null)).entries().isEmpty());
    }

    /**
     * Issue 33: a time with an offset other than Z, typed into a URL as it is written (the "+" unescaped, which a
     * query string reads as a space), or escaped, means the same instant as its UTC spelling.
     */
    @Test
    void timesWithAnyOffsetAreAccepted() {
        server.client(admin).createUser(new UserRequest("offset", null, null, null));
        for (String since : List.of("2000-01-01T02:00:00+02:00", "2000-01-01T02:00:00%2B02:00",
                "1999-12-31T19:00:00-05:00", "2000-01-01T00:00:00Z")) {
            HttpResponse<String> response = server.request("GET", "/api/v1/audit?action=user.create&since=" + since,
                    admin, null);
            assertEquals(200, response.statusCode(), since + ": " + response.body());
            assertEquals(1, json(response).path("entries").size(), since);
            HttpResponse<String> none = server.request("GET", "/api/v1/audit?action=user.create&until=" + since,
                    admin, null);
            assertEquals(200, none.statusCode(), since + ": " + none.body());
            assertEquals(0, json(none).path("entries").size(), since);
        }
    }

    @Test
    void badFiltersAreRefusedNamingTheProblem() {
        for (String query : List.of("since=yesterday", "limit=0", "limit=1001", "before=-1", "until=2026-13-01")) {
            HttpResponse<String> response = server.request("GET", "/api/v1/audit?" + query, admin, null);
            assertEquals(400, response.statusCode(), query);
            String name = query.substring(0, query.indexOf('='));
            assertTrue(json(response).path("detail").asString().contains(name), response.body());
        }
    }

    @Test
    void readingNeedsTheAuditScope() {
        MeshClient client = server.client(admin);
        IssuedApiKey dnsOnly = client.createApiKey(new ApiKeyRequest(null, List.of("dns"), "dns", null));
        IssuedApiKey auditor = client.createApiKey(new ApiKeyRequest(null, List.of("all:read"), "audit", null));
        assertEquals(403, server.request("GET", "/api/v1/audit", dnsOnly.secret(), null).statusCode());
        HttpResponse<String> read = server.request("GET", "/api/v1/audit?action=apikey.create", auditor.secret(),
                null);
        assertEquals(200, read.statusCode());
        assertEquals(2, json(read).path("entries").size());
    }
}
