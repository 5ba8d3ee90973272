package io.meshcontrol.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.api.UserRequest;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.testing.AuthKey;
import io.meshcontrol.core.testing.GeoDatabases;
import io.meshcontrol.core.testing.Machine;
import io.meshcontrol.server.testing.TestServer;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code policy.geoip_database} in a running server: {@code /api/v1/node} shows where a node is, and an
 * {@code ip:country} posture admits it to its peer's packet filter only while its endpoint is in the country; a
 * reload (what SIGHUP does) puts a newer database in force.
 */
class LocationPolicyTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String POLICY = """
            {
              "tagOwners": {"tag:server": ["autogroup:admin"]},
              "postures": {"posture:uk": ["ip:country == 'GB'"]},
              "defaultSrcPosture": ["posture:uk"],
              "acls": [{"action": "accept", "src": ["autogroup:member"], "dst": ["tag:server:22"]}]
            }""";

    @TempDir
    Path folder;
    Path database;
    TestServer server;
    Node laptop;
    Node host;

    @BeforeEach
    void start() throws Exception {
        database = GeoDatabases.write(folder.resolve("GeoLite2-City.mmdb"), "81.2.69.0/24=GB/London",
                "89.160.20.0/24=SE");
        server = TestServer.in(folder).set("policy.geoip_database", database.toString()).start();
        server.adminClient().createUser(new UserRequest("alice", null, "alice@example.com", "member"));
        server.adminClient().setPolicy(POLICY);
        laptop = Machine.named("laptop").join(server.network, AuthKey.forUser("alice").create(server.network));
        host = Machine.named("host").join(server.network, AuthKey.forTags("tag:server").create(server.network));
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private void reports(String endpoint) {
        server.network.nodes().updateFromClient(laptop.id(), null, List.of(endpoint), null, null);
    }

    private JsonNode get(String path) {
        HttpResponse<String> response = server.request("GET", path, server.localToken(), null);
        assertEquals(200, response.statusCode(), path + ": " + response.body());
        return JSON.readTree(response.body());
    }

    private boolean hostAdmitsLaptop() {
        return get("/api/v1/node/" + host.id() + "/packet-filter").toString().contains(laptop.ipv4());
    }

    @Test
    void theNodeShowsItsLocationAndMovingItChangesItsPeersFilter() {
        assertNull(get("/api/v1/node/" + laptop.id()).get("location"), "no endpoint yet: no location");
        assertFalse(hostAdmitsLaptop());

        reports("81.2.69.20:41641");
        JsonNode location = get("/api/v1/node/" + laptop.id()).get("location");
        assertEquals("{\"country\":\"GB\",\"city\":\"London\",\"address\":\"81.2.69.20\"}", location.toString());
        assertTrue(hostAdmitsLaptop(), "in the UK it satisfies the default posture");

        reports("89.160.20.20:41641");
        assertEquals("SE", get("/api/v1/node/" + laptop.id()).get("location").get("country").asString());
        assertFalse(hostAdmitsLaptop(), "in Sweden it does not");
    }

    @Test
    void aReloadPutsANewerDatabaseInForce() throws Exception {
        reports("89.160.20.20:41641");
        assertFalse(hostAdmitsLaptop());
        Path newer = GeoDatabases.write(folder.resolve("newer.mmdb"), "89.160.20.0/24=GB/Manchester");
        Files.move(newer, database, StandardCopyOption.REPLACE_EXISTING);

        server.application.reload();

        assertEquals("Manchester", get("/api/v1/node/" + laptop.id()).get("location").get("city").asString());
        assertTrue(hostAdmitsLaptop());
    }

    @Test
    void thePreviewSupposesALocationWhenAskedFor() {
        reports("89.160.20.20:41641");
        assertEquals("[]", preview(null).get("reach").toString(), "placed in Sweden: reaches nothing");
        JsonNode supposed = preview("{\"node\": \"" + laptop.id() + "\", \"country\": \"gb\"}");
        assertEquals("host", supposed.get("reach").get(0).get("name").asString(), supposed.toString());
        assertFalse(hostAdmitsLaptop(), "a supposition changes nothing in force");
        HttpResponse<String> bad = server.request("POST", "/api/v1/policy/preview", server.localToken(),
                "{\"node\": \"" + laptop.id() + "\", \"country\": \"Britain\"}");
        assertEquals(400, bad.statusCode(), bad.body());
        assertTrue(bad.body().contains("two-letter country code"), bad.body());
    }

    private JsonNode preview(String body) {
        HttpResponse<String> response = server.request("POST", "/api/v1/policy/preview", server.localToken(),
                body == null ? "{\"node\": \"" + laptop.id() + "\"}" : body);
        assertEquals(200, response.statusCode(), response.body());
        return JSON.readTree(response.body());
    }
}
