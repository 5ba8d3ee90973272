package io.meshcontrol.server.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.api.GlobalExitNodeRequest;
import io.meshcontrol.api.PreAuthKeyRequest;
import io.meshcontrol.api.UserRequest;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.testing.Machine;
import io.meshcontrol.server.testing.TestServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** {@code {metrics_listen_addr}/debug/routes}: regional primaries beside the tailnet-wide ones, JSON and HTML. */
class RoutesPageTest {

    @TempDir
    Path folder;

    /** A router of 10.1.0.0/16 at home in {@code region}, also advertising {@code more} routes. */
    private static String inRegion(String name, int region, String... more) {
        StringBuilder routes = new StringBuilder("\"10.1.0.0/16\"");
        for (String route : more) {
            routes.append(",\"").append(route).append('"');
        }
        return "{\"Hostname\":\"" + name + "\",\"RoutableIPs\":[" + routes + "],\"NetInfo\":{\"PreferredDERP\":"
                + region + "}}";
    }

    @Test
    void listsEachRoutesTailnetWideAndRegionalPrimariesAndTheGlobalExitNodes() throws Exception {
        try (TestServer server = TestServer.start(folder)) {
            var admin = server.adminClient();
            admin.createUser(new UserRequest("odin", null, null, "it-admin"));
            String key = admin.createPreAuthKey(new PreAuthKeyRequest("odin", null, true, false, false, "", null))
                    .secret();
            Node r1 = Machine.named("r1").hostinfo(inRegion("r1", 1)).join(server.network, key);
            Node r2 = Machine.named("r2").hostinfo(inRegion("r2", 2, "0.0.0.0/0", "::/0")).join(server.network, key);
            for (Node router : List.of(r1, r2)) {
                admin.setNodeRoutes(Long.toString(router.id()), List.of("10.1.0.0/16"));
                server.network.presence().connected(router);
            }
            admin.setGlobalExitNode(Long.toString(r2.id()), new GlobalExitNodeRequest(null, 9));
            String base = "http://127.0.0.1:" + server.server.metricsAddress().orElseThrow().getPort()
                    + "/debug/routes";

            JsonNode report = JsonMapper.builder().build().readTree(get(base + "?format=json").body());
            JsonNode lan = report.get("routes").get(0);
            assertEquals("10.1.0.0/16", lan.get("prefix").asString());
            assertEquals(r1.id(), lan.get("primary").get("id").asLong(), "the lowest id serves tailnet-wide");
            assertEquals(r1.id(), lan.get("regions").get("1").get("id").asLong());
            assertEquals(r2.id(), lan.get("regions").get("2").get("id").asLong(), "region 2 has its own primary");
            assertEquals(2, lan.get("routers").size());
            assertEquals(9, report.get("globalExitNodes").get(0).get("priority").asInt());

            HttpResponse<String> page = get(base);
            assertTrue(page.headers().firstValue("Content-Type").orElseThrow().startsWith("text/html"));
            assertTrue(page.body().contains("region 2: r2 (" + r2.id() + ")"), page.body());
        }
    }

    private static HttpResponse<String> get(String url) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url)).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
