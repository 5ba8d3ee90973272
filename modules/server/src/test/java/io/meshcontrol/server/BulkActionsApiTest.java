package io.meshcontrol.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.api.ApiJson;
import io.meshcontrol.api.ApiKeyRequest;
import io.meshcontrol.api.BulkResult;
import io.meshcontrol.api.MeshClient;
import io.meshcontrol.api.PreAuthKeyRequest;
import io.meshcontrol.api.UserRequest;
import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.model.AuditEntry;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.state.Settings;
import io.meshcontrol.core.testing.Machine;
import io.meshcontrol.core.testing.MovableClock;
import io.meshcontrol.server.testing.TestServer;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.json.JsonMapper;

/**
 * The bulk routes ({@code POST /api/v1/node/bulk}, {@code /api/v1/apikey/bulk}, {@code /api/v1/preauthkey/bulk}): one
 * request, one transaction, all or nothing, an audit entry per item changed, and a refusal that names every
 * offending id.
 */
class BulkActionsApiTest {

    private static final JsonMapper JSON = ApiJson.mapper(false);

    @TempDir
    Path folder;
    private final MovableClock clock = MovableClock.startingAt2026();
    private TestServer server;
    private MeshClient admin;
    private String key;

    @BeforeEach
    void start() {
        server = TestServer.in(folder).clock(clock).start();
        admin = server.adminClient();
        admin.createUser(new UserRequest("odin", null, null, "member"));
        key = admin.createPreAuthKey(new PreAuthKeyRequest("odin", null, true, false, false, "", null)).secret();
        admin.setPolicy("{\"tagOwners\": {\"tag:web\": [\"odin@\"], \"tag:db\": [\"odin@\"]}}", null);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private String join(String name) {
        return Long.toString(Machine.named(name).join(server.network, key).id());
    }

    private HttpResponse<String> bulk(String list, String body) {
        return server.request("POST", "/api/v1/" + list + "/bulk", server.localToken(), body);
    }

    private BulkResult done(String list, String body) {
        HttpResponse<String> answer = bulk(list, body);
        assertEquals(200, answer.statusCode(), answer.body());
        return JSON.readValue(answer.body(), BulkResult.class);
    }

    private static String ids(String... ids) {
        return Stream.of(ids).map(id -> "\"" + id + "\"").collect(Collectors.joining(", ", "[", "]"));
    }

    private Optional<Node> node(String id) {
        return server.network.snapshots().current().node(Long.parseLong(id));
    }

    private List<AuditEntry> entries(String action) {
        return server.network.auditLog().recent(action, 100);
    }

    @Test
    void approvingManyNodesIsOneRequestWithAnAuditEntryForEachNodeItChanged() {
        String approved = join("approved");
        server.network.settings().update(Caller.localAdmin(), new Settings.Change(true, null, null, null));
        String first = join("first");
        String second = join("second");
        int before = entries("node.update").size();

        BulkResult result = done("node", "{\"action\": \"approve\", \"ids\": " + ids(first, approved, second) + "}");

        assertEquals(new BulkResult("approve", List.of(first, second), List.of(approved)), result);
        assertTrue(node(first).orElseThrow().authorized() && node(second).orElseThrow().authorized());
        List<AuditEntry> written = entries("node.update").subList(0, entries("node.update").size() - before);
        assertEquals(List.of(first, second).stream().sorted().toList(),
                written.stream().map(AuditEntry::target).sorted().toList(), "one entry per node changed, none else");
        assertTrue(written.stream().allMatch(e -> "true".equals(e.details().get("bulk"))), written.toString());
    }

    @Test
    void anUnknownIdChangesNothingAndTheRefusalNamesEveryUnknownId() {
        String a = join("a");
        String b = join("b");

        HttpResponse<String> refused = bulk("node", "{\"action\": \"delete\", \"ids\": " + ids(a, "999998", b, "999999")
                + "}");

        assertEquals(404, refused.statusCode(), refused.body());
        assertTrue(refused.body().contains("999998") && refused.body().contains("999999"), refused.body());
        assertFalse(refused.body().contains("\"" + a + "\""), refused.body());
        assertTrue(node(a).isPresent() && node(b).isPresent(), "nothing was deleted");
        assertEquals(List.of(), entries("node.delete"));

        assertEquals(List.of(a, b), done("node", "{\"action\": \"delete\", \"ids\": " + ids(a, b) + "}").changed());
        assertTrue(node(a).isEmpty() && node(b).isEmpty());
        assertEquals(2, entries("node.delete").size());
    }

    @Test
    void tagsAreAddedAndRemovedAllOrNothing() {
        String a = join("a");
        String b = join("b");
        assertEquals(List.of(a, b), done("node", "{\"action\": \"add-tags\", \"ids\": " + ids(a, b)
                + ", \"tags\": [\"tag:db\"]}").changed());
        done("node", "{\"action\": \"add-tags\", \"ids\": " + ids(a) + ", \"tags\": [\"tag:web\"]}");
        assertEquals(List.of("tag:db", "tag:web"), node(a).orElseThrow().tags());

        HttpResponse<String> refused = bulk("node", "{\"action\": \"remove-tags\", \"ids\": " + ids(a, b)
                + ", \"tags\": [\"tag:db\"]}");

        assertEquals(400, refused.statusCode(), refused.body());
        assertTrue(refused.body().contains(b + " (node b belongs to its tags"), refused.body());
        assertEquals(List.of("tag:db", "tag:web"), node(a).orElseThrow().tags(), "a kept its tag: all or nothing");

        HttpResponse<String> unowned = bulk("node", "{\"action\": \"add-tags\", \"ids\": " + ids(a)
                + ", \"tags\": [\"tag:nobody\"]}");
        assertEquals(400, unowned.statusCode(), unowned.body());
        assertTrue(unowned.body().contains(a), unowned.body());
    }

    @Test
    void keysExpireAndKeyExpiryIsSwitchedOffForManyNodes() {
        String a = join("a");
        String b = join("b");
        assertEquals(List.of(a, b), done("node", "{\"action\": \"expire\", \"ids\": " + ids(a, b) + "}").changed());
        assertTrue(node(a).orElseThrow().isKeyExpired(clock.instant()));
        assertEquals(2, entries("node.update").size());
        assertEquals(List.of(a, b), done("node", "{\"action\": \"disable-key-expiry\", \"ids\": " + ids(a, b) + "}")
                .changed());
        assertTrue(node(b).orElseThrow().keyExpiryDisabled());
        assertEquals(List.of(a, b), done("node", "{\"action\": \"disable-key-expiry\", \"ids\": " + ids(a, b) + "}")
                .unchanged(), "already off: nothing to write");
    }

    @Test
    void badRequestsAreRefusedNamingWhatIsWrong() {
        String a = join("a");
        for (var bad : List.of(
                List.of("{\"action\": \"explode\", \"ids\": " + ids(a) + "}", "explode"),
                List.of("{\"ids\": " + ids(a) + "}", "action"),
                List.of("{\"action\": \"approve\", \"ids\": " + ids(a, "seven", "-1") + "}", "\\\"seven\\\", \\\"-1\\\""),
                List.of("{\"action\": \"approve\", \"ids\": []}", "ids"),
                List.of("{\"action\": \"approve\"}", "ids"),
                List.of("{\"action\": \"add-tags\", \"ids\": " + ids(a) + "}", "tags"),
                List.of("{\"action\": \"approve\", \"ids\": " + ids(a) + ", \"tags\": [\"tag:web\"]}", "approve takes none"))) {
            HttpResponse<String> answer = bulk("node", bad.get(0));
            assertEquals(400, answer.statusCode(), bad.get(0) + ": " + answer.body());
            assertTrue(answer.body().contains(bad.get(1)), bad.get(0) + ": " + answer.body());
        }
        String many = ids(java.util.stream.IntStream.range(0, 1001).mapToObj(Integer::toString).toArray(String[]::new));
        HttpResponse<String> tooMany = bulk("node", "{\"action\": \"approve\", \"ids\": " + many + "}");
        assertEquals(400, tooMany.statusCode());
        assertTrue(tooMany.body().contains("at most 1000"), tooMany.body());
    }

    @Test
    void apiKeysExpireAllOrNothing() {
        String first = admin.createApiKey(new ApiKeyRequest(null, List.of("devices:core:read"), "first", null))
                .apiKey().prefix();
        String second = admin.createApiKey(new ApiKeyRequest(null, List.of("devices:core:read"), "second", null))
                .apiKey().prefix();

        HttpResponse<String> refused = bulk("apikey", "{\"action\": \"expire\", \"ids\": " + ids(first, "nosuch", second)
                + "}");
        assertEquals(404, refused.statusCode(), refused.body());
        assertTrue(refused.body().contains("nosuch") && !refused.body().contains("refused API keys: " + first),
                refused.body());
        assertTrue(admin.apiKeys().stream().noneMatch(k -> k.expired()), "nothing expired");

        assertEquals(new BulkResult("expire", List.of(first, second), List.of()),
                done("apikey", "{\"action\": \"expire\", \"ids\": " + ids(first, second) + "}"));
        assertTrue(admin.apiKeys().stream().filter(k -> k.prefix().equals(first) || k.prefix().equals(second))
                .allMatch(k -> k.expired()));
        assertEquals(2, entries("apikey.expire").size());
        assertEquals(400, bulk("apikey", "{\"action\": \"revoke\", \"ids\": " + ids(first) + "}").statusCode());
    }

    @Test
    void preAuthKeysAreRevokedAllOrNothing() {
        String first = admin.createPreAuthKey(new PreAuthKeyRequest("odin", null, false, false, false, "", null))
                .preAuthKey().id();
        String second = admin.createPreAuthKey(new PreAuthKeyRequest("odin", null, false, false, false, "", null))
                .preAuthKey().id();

        HttpResponse<String> refused = bulk("preauthkey", "{\"action\": \"revoke\", \"ids\": "
                + ids(first, "999999", second) + "}");
        assertEquals(404, refused.statusCode(), refused.body());
        assertTrue(refused.body().contains("999999"), refused.body());
        assertTrue(admin.preAuthKeys().stream().filter(k -> k.id().equals(first) || k.id().equals(second))
                .allMatch(k -> k.valid()), "nothing revoked");

        assertEquals(new BulkResult("revoke", List.of(first, second), List.of()),
                done("preauthkey", "{\"action\": \"revoke\", \"ids\": " + ids(first, second) + "}"));
        assertEquals(new BulkResult("revoke", List.of(), List.of(first)),
                done("preauthkey", "{\"action\": \"revoke\", \"ids\": " + ids(first) + "}"));
        assertEquals(2, entries("preauthkey.revoke").size());
    }
}
