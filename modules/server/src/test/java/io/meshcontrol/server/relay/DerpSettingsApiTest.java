package io.meshcontrol.server.relay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.api.ApiKeyRequest;
import io.meshcontrol.api.UserRequest;
import io.meshcontrol.core.model.AuditEntry;
import io.meshcontrol.core.testing.LoopbackHttpServer;
import io.meshcontrol.core.testing.RefusingPort;
import io.meshcontrol.core.wire.DERPMap;
import io.meshcontrol.core.wire.DERPNode;
import io.meshcontrol.server.testing.TestServer;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code /api/v1/derp}: the precondition rules, refusals that change nothing, map URLs, reset, audit and scopes.
 * Map URLs point at a loopback publisher of the test; the server runs with {@code egress.allow_loopback_targets}
 * (the documented test seam), except where the default refusal of loopback is the point.
 */
class DerpSettingsApiTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @TempDir
    Path folder;
    TestServer server;
    String admin;
    final LoopbackHttpServer maps = new LoopbackHttpServer();

    @BeforeEach
    void start() {
        server = TestServer.in(folder).relay(true).set("egress.allow_loopback_targets", "true").start();
        admin = server.localToken();
        maps.serve("/a.json", region(900, "derp-a.example")).serve("/b.json", region(901, "derp-b.example"));
    }

    @AfterEach
    void stop() {
        server.close();
        maps.close();
    }

    static String region(int id, String host) {
        return "{\"Regions\":{\"" + id + "\":{\"RegionID\":" + id + ",\"RegionCode\":\"r" + id + "\",\"RegionName\":\"R"
                + id + "\",\"Nodes\":[{\"Name\":\"" + id + "a\",\"RegionID\":" + id + ",\"HostName\":\"" + host + "\"}]}}}";
    }

    private HttpResponse<String> get() {
        return server.request("GET", "/api/v1/derp", admin, null);
    }

    private HttpResponse<String> put(String body, String ifMatch) {
        return server.request("PUT", "/api/v1/derp", admin, body,
                ifMatch == null ? Map.of() : Map.of("If-Match", ifMatch));
    }

    private static String etag(HttpResponse<String> response) {
        return response.headers().firstValue("ETag").orElseThrow();
    }

    private static JsonNode body(HttpResponse<String> response) {
        return JSON.readTree(response.body());
    }

    private DERPMap map() {
        return server.server.mapContext().derpMap();
    }

    @Test
    void getAnswersTheConfiguredSettingsWithAnETag() {
        HttpResponse<String> response = get();
        assertEquals(200, response.statusCode(), response.body());
        assertTrue(etag(response).startsWith("\""));
        JsonNode settings = body(response);
        assertEquals(List.of(), JSON.convertValue(settings.get("urls"), List.class));
        assertTrue(settings.get("relayEnabled").asBoolean());
        assertTrue(settings.get("verifyClients").asBoolean());
        assertTrue(settings.get("stunEnabled").asBoolean());
        assertEquals("127.0.0.1:0", settings.get("stunListenAddr").asString());
        assertEquals("24h", settings.get("updateFrequency").asString());
        assertEquals("", settings.get("ipv4").asString());
    }

    @Test
    void staleIfMatchIsRefusedWith412AndChangesNothing() {
        String first = etag(get());
        HttpResponse<String> changed = put("{\"verifyClients\":false}", first);
        assertEquals(200, changed.statusCode(), changed.body());
        assertNotEquals(first, etag(changed));
        HttpResponse<String> stale = put("{\"verifyClients\":true,\"stunEnabled\":false}", first);
        assertEquals(412, stale.statusCode());
        assertTrue(stale.body().contains("changed since"), stale.body());
        JsonNode now = body(get());
        assertFalse(now.get("verifyClients").asBoolean(), "the refused write changed nothing");
        assertTrue(now.get("stunEnabled").asBoolean());
        assertEquals(etag(changed), etag(get()));
    }

    @Test
    void starMatchesAnyVersionAndNoHeaderWritesUnconditionally() {
        assertEquals(200, put("{\"verifyClients\":false}", null).statusCode());
        assertEquals(200, put("{\"verifyClients\":false,\"stunEnabled\":false}", "*").statusCode());
        assertFalse(body(get()).get("stunEnabled").asBoolean());
    }

    @Test
    void leavingOutVerifyClientsTurnsVerificationOn() {
        assertEquals(200, put("{\"verifyClients\":false}", null).statusCode());
        assertFalse(server.server.relayRuntime().configuration().current().settings().verifyClients());
        HttpResponse<String> response = put("{\"stunEnabled\":true}", null);
        assertEquals(200, response.statusCode());
        assertTrue(body(response).get("verifyClients").asBoolean());
    }

    @Test
    void invalidRelayHostRefusesTheWholeChange() {
        String before = etag(get());
        HttpResponse<String> response = put("{\"verifyClients\":false,\"urls\":[\"" + maps.url("/a.json")
                + "\"],\"relays\":[{\"regionId\":900,\"code\":\"home\",\"host\":\"not a host\"}]}", null);
        assertEquals(400, response.statusCode());
        assertTrue(response.body().contains("\\\"not a host\\\"") && response.body().contains("not a valid HTTP host"),
                response.body());
        assertEquals(before, etag(get()), "nothing changed");
        assertEquals(0, maps.requests.size(), "refused before anything was fetched");
        assertFalse(map().regions().containsKey(900));
    }

    @Test
    void unfetchableMapUrlRefusesTheWholeChange() {
        String before = etag(get());
        String url = maps.url("/missing.json");
        HttpResponse<String> response = put("{\"urls\":[\"" + maps.url("/a.json") + "\",\"" + url
                + "\"],\"stunEnabled\":false}", null);
        assertEquals(400, response.statusCode());
        assertTrue(response.body().contains(url) && response.body().contains("404"), response.body());
        assertEquals(before, etag(get()));
        assertTrue(server.server.relay().orElseThrow().stunPort() > 0, "STUN still runs");
        assertFalse(map().regions().containsKey(900), "the fetchable URL of the refused change is not used either");
    }

    @Test
    void mapUrlsAreMergedInOrderAndKeptUrlsAreNotFetchedAgain() {
        assertEquals(200, put("{\"urls\":[\"" + maps.url("/a.json") + "\"]}", null).statusCode());
        assertTrue(map().regions().containsKey(900));
        assertEquals(200, put("{\"urls\":[\"" + maps.url("/a.json") + "\",\"" + maps.url("/b.json")
                + "\"],\"stunEnabled\":false}", null).statusCode());
        assertEquals(List.of(900, 901, 999), List.copyOf(map().regions().keySet()));
        assertEquals(1, maps.requestsFor("/a.json"), "the kept URL reused its fetched map");
        assertEquals(1, maps.requestsFor("/b.json"));
        assertEquals(200, put("{\"urls\":[]}", null).statusCode());
        assertEquals(List.of(999), List.copyOf(map().regions().keySet()), "no URLs: only own relays");
    }

    @Test
    void customRelaysArePublishedAsRegions() {
        HttpResponse<String> response = put("{\"relays\":[{\"regionId\":900,\"code\":\"home\",\"host\":\"relay.example.com\","
                + "\"ipv4\":\"192.0.2.7\"}]}", null);
        assertEquals(200, response.statusCode(), response.body());
        DERPNode node = map().regions().get(900).nodes().getFirst();
        assertEquals("home", map().regions().get(900).regionCode());
        assertEquals("relay.example.com", node.hostName());
        assertEquals("192.0.2.7", node.ipv4());
        assertEquals(400, put("{\"relays\":[{\"regionId\":999,\"code\":\"x\",\"host\":\"a.example\"}]}", null)
                .statusCode(), "the embedded region's id is taken");
    }

    @Test
    void portZeroBindsAFreePortAndPublishesIt() {
        assertEquals(200, put("{\"stunEnabled\":false}", null).statusCode());
        assertEquals(DERPNode.STUN_DISABLED, map().regions().get(999).nodes().getFirst().stunPort());
        assertEquals(200, put("{\"stunEnabled\":true,\"stunListenAddr\":\"127.0.0.1:0\"}", null).statusCode());
        int bound = server.server.relay().orElseThrow().stunPort();
        assertTrue(bound > 0);
        assertEquals(bound, map().regions().get(999).nodes().getFirst().stunPort());
    }

    @Test
    void publishedAddressesFollowTheSettings() {
        assertEquals(200, put("{\"ipv4\":\"192.0.2.1\",\"ipv6\":\"none\"}", null).statusCode());
        DERPNode node = map().regions().get(999).nodes().getFirst();
        assertEquals("192.0.2.1", node.ipv4());
        assertEquals("none", node.ipv6());
        assertEquals(400, put("{\"ipv4\":\"2001:db8::1\"}", null).statusCode());
    }

    @Test
    void deleteResetsToTheConfiguredSettings() {
        String configured = etag(get());
        assertEquals(200, put("{\"verifyClients\":false,\"urls\":[\"" + maps.url("/a.json") + "\"]}", null).statusCode());
        HttpResponse<String> reset = server.request("DELETE", "/api/v1/derp", admin, null);
        assertEquals(200, reset.statusCode(), reset.body());
        assertEquals(configured, etag(reset));
        assertTrue(body(reset).get("verifyClients").asBoolean());
        assertFalse(map().regions().containsKey(900));
    }

    @Test
    void changesAreAuditedWithMapUrlsStrippedOfUserInfoAndQuery() {
        String url = maps.url("/a.json").replace("http://", "http://reader:secret@") + "?token=abc";
        assertEquals(200, put("{\"urls\":[\"" + url + "\"]}", null).statusCode());
        assertEquals(200, server.request("DELETE", "/api/v1/derp", admin, null).statusCode());
        List<AuditEntry> entries = server.network.auditLog().recent(null, 10);
        AuditEntry update = entries.stream().filter(e -> e.action().equals("derp.update")).findFirst().orElseThrow();
        assertEquals(maps.url("/a.json"), update.details().get("urls"));
        assertTrue(entries.stream().anyMatch(e -> e.action().equals("derp.reset")));
        assertTrue(entries.stream().noneMatch(e -> e.details().toString().contains("secret")
                || e.details().toString().contains("token")));
        assertEquals("local-admin", update.actor());
    }

    /** Issue 33: a writer read map URL credentials whole; now nobody does, and a writer's round trip keeps them. */
    @Test
    void mapUrlCredentialsAreNeverReadBackAndAWriterKeepsThemBySendingBackWhatItRead() {
        String url = maps.url("/a.json").replace("http://", "http://reader:secret@") + "?token=abc";
        String shown = maps.url("/a.json").replace("http://", "http://svc-hidden@") + "?svc-hidden";
        assertEquals(200, put("{\"urls\":[\"" + url + "\"]}", null).statusCode());
        server.adminClient().createUser(new UserRequest("audrey", null, null, "auditor"));
        String auditor = server.adminClient().createApiKey(new ApiKeyRequest("audrey", null, "auditor", null)).secret();
        String allRead = server.adminClient().createApiKey(new ApiKeyRequest(null, List.of("all:read"), "r", null))
                .secret();
        String writer = server.adminClient().createApiKey(new ApiKeyRequest(null, List.of("networking_settings"),
                "writer", null)).secret();
        for (String reader : List.of(auditor, allRead, writer, admin)) {
            HttpResponse<String> read = server.request("GET", "/api/v1/derp", reader, null);
            assertEquals(200, read.statusCode(), read.body());
            assertEquals(List.of(shown), JSON.convertValue(body(read).get("urls"), List.class));
            assertFalse(read.body().contains("secret") || read.body().contains("token"), read.body());
        }
        HttpResponse<String> audited = server.request("GET", "/api/v1/derp", auditor, null);
        assertNotEquals(etag(get()), etag(audited), "no hash of the hidden credentials either");

        // svc derp set writes back what it read, with the writer's ETag: the stored URL stays whole
        HttpResponse<String> written = put("{\"urls\":[\"" + shown + "\"],\"stunEnabled\":false}", etag(get()));
        assertEquals(200, written.statusCode(), written.body());
        assertFalse(written.body().contains("secret"), written.body());
        assertEquals(List.of(url), server.network.savedDerpSettings().read().orElseThrow().urls());

        // a placeholder that stands for nothing in force is refused, naming the way out
        HttpResponse<String> unknown = put("{\"urls\":[\"" + shown.replace("/a.json", "/b.json") + "\"]}", null);
        assertEquals(400, unknown.statusCode(), unknown.body());
        assertTrue(unknown.body().contains("write the URL whole"), unknown.body());
        assertEquals(List.of(url), server.network.savedDerpSettings().read().orElseThrow().urls());
    }

    @Test
    void settingsSurviveARestart() {
        assertEquals(200, put("{\"verifyClients\":false,\"stunEnabled\":false}", null).statusCode());
        String saved = etag(get());
        server.close();
        server = TestServer.startWithRelay(folder, true);
        admin = server.localToken();
        assertEquals(saved, etag(get()));
        assertEquals(DERPNode.STUN_DISABLED, map().regions().get(999).nodes().getFirst().stunPort());
    }

    @Test
    void readingNeedsNetworkingSettingsReadAndWritingNetworkingSettings() {
        String reader = server.adminClient().createApiKey(new ApiKeyRequest(null, List.of("networking_settings:read"),
                "reader", null)).secret();
        String writer = server.adminClient().createApiKey(new ApiKeyRequest(null, List.of("networking_settings"),
                "writer", null)).secret();
        assertEquals(200, server.request("GET", "/api/v1/derp", reader, null).statusCode());
        assertEquals(403, server.request("PUT", "/api/v1/derp", reader, "{}").statusCode());
        assertEquals(403, server.request("DELETE", "/api/v1/derp", reader, null).statusCode());
        assertEquals(403, server.request("GET", "/api/v1/derp/latency", writer, null).statusCode(),
                "latency needs devices:core:read");
        assertEquals(200, server.request("PUT", "/api/v1/derp", writer, "{}").statusCode());
        assertEquals(401, server.request("GET", "/api/v1/derp", null, null).statusCode());
    }

    @Test
    void refreshFetchesAgainAndReportsFailingSources() {
        assertEquals(200, put("{\"urls\":[\"" + maps.url("/a.json") + "\"]}", null).statusCode());
        maps.answer("/a.json", new LoopbackHttpServer.Answer(500, Map.of(), new byte[0]));
        HttpResponse<String> refresh = server.request("POST", "/api/v1/derp/refresh", admin, null);
        assertEquals(200, refresh.statusCode());
        assertTrue(refresh.body().contains("500"), refresh.body());
        assertTrue(map().regions().containsKey(900), "an unreachable source leaves the previous map");
        maps.serve("/a.json", region(902, "derp-c.example"));
        assertEquals("{\"problems\":[]}", server.request("POST", "/api/v1/derp/refresh", admin, null).body());
        assertTrue(map().regions().containsKey(902));
        assertFalse(map().regions().containsKey(900));
    }

    @Test
    void mapFilesAreMergedAfterUrlsAndAFileThatAddsNothingStopsTheStart() throws Exception {
        server.close();
        Path files = folder.resolve("files");
        java.nio.file.Files.createDirectories(files);
        Path remove = java.nio.file.Files.writeString(files.resolve("remove.json"), "{\"Regions\": {\"900\": null}}");
        Path add = java.nio.file.Files.writeString(files.resolve("add.yaml"),
                "regions:\n  905:\n    regioncode: own\n    nodes:\n      - hostname: own.example\n");
        server = TestServer.in(folder.resolve("s2")).relay(true).set("egress.allow_loopback_targets", "true")
                .set("derp.urls", maps.url("/a.json")).set("derp.paths", remove + " " + add).start();
        admin = server.localToken();
        // The start fetches URLs in the background; a refresh fetches them now. The file's null removes region 900.
        assertEquals("{\"problems\":[]}", server.request("POST", "/api/v1/derp/refresh", admin, null).body());
        assertTrue(maps.requestsFor("/a.json") >= 1);
        assertEquals(List.of(905, 999), List.copyOf(map().regions().keySet()));
        server.close();
        Path empty = java.nio.file.Files.writeString(files.resolve("empty.json"), "{\"Regions\": {}}");
        io.meshcontrol.core.MeshException refused = org.junit.jupiter.api.Assertions.assertThrows(
                io.meshcontrol.core.MeshException.class,
                () -> TestServer.in(folder.resolve("s3")).relay(true).set("derp.paths", empty.toString()).start());
        assertTrue(refused.getMessage().contains(empty.toString()) && refused.getMessage().contains("adds no region"),
                refused.getMessage());
        server = TestServer.startWithRelay(folder.resolve("s4"), true);
    }

    @Test
    void loopbackMapUrlsAreRefusedByDefault() {
        server.close();
        server = TestServer.startWithRelay(folder.resolve("second"), true);
        HttpResponse<String> response = server.request("PUT", "/api/v1/derp", server.localToken(),
                "{\"urls\":[\"" + maps.url("/a.json") + "\"]}");
        assertEquals(400, response.statusCode());
        assertTrue(response.body().contains("loopback"), response.body());
        assertEquals(0, maps.requests.size());
    }

    private static String unreachableUrl(String path) {
        return RefusingPort.url(path);
    }

    @Test
    void withAnUnreachableDefaultMapChangesThatAddNoUrlStillWork() throws IOException {
        String unreachableDefault = unreachableUrl("/derpmap/default");
        server.close();
        server = TestServer.in(folder.resolve("offline")).relay(true).set("derp.urls", unreachableDefault)
                .set("egress.allow_loopback_targets", "true").start();
        admin = server.localToken();

        HttpResponse<String> set = put("{\"verifyClients\":false}", null);
        assertEquals(200, set.statusCode(), set.body());
        assertEquals(List.of(unreachableDefault), JSON.convertValue(body(set).get("urls"), List.class));
        assertEquals(200, server.request("DELETE", "/api/v1/derp", admin, null).statusCode());
        HttpResponse<String> afterReset = put("{\"stunEnabled\":false,\"urls\":[\"" + unreachableDefault + "\"]}",
                null);
        assertEquals(200, afterReset.statusCode(), "after a reset, too: " + afterReset.body());
        HttpResponse<String> added = put("{\"urls\":[\"" + unreachableDefault + "\",\"" + maps.url("/a.json")
                + "\"]}", null);
        assertEquals(200, added.statusCode(), "only the added URL is fetched: " + added.body());
        assertTrue(map().regions().containsKey(900));

        String other = unreachableUrl("/other");
        HttpResponse<String> refused = put("{\"urls\":[\"" + other + "\"]}", null);
        assertEquals(400, refused.statusCode());
        String detail = body(refused).get("detail").asString();
        assertTrue(detail.startsWith("nothing was changed: cannot fetch DERP map " + other), detail);
        assertTrue(detail.contains("derp.urls: []") && detail.contains("svc derp set --url \"\""), detail);
    }
}
