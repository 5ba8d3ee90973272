package io.meshcontrol.server.relay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.key.NodePrivateKey;
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

/** {@code {metrics_listen_addr}/debug/derp-clients/}: connected clients, filters, sorting, JSON and HTML. */
class DerpClientsPageTest {

    @TempDir
    Path folder;

    @Test
    void listsConnectedClientsWithFiltersAndSorting() throws Exception {
        try (TestServer server = TestServer.startWithRelay(folder, false);
             DerpSocketClient home = DerpSocketClient.connect(server.server.httpAddress(), NodePrivateKey.generate());
             DerpSocketClient other = DerpSocketClient.connect(server.server.httpAddress(), NodePrivateKey.generate())) {
            home.send(0x07, new byte[] {1}); // NotePreferred: this relay is its home
            home.send(0x12, new byte[8]);
            home.read(); // the pong: the server has taken the note
            other.send(0x12, new byte[8]);
            other.read();
            String base = "http://127.0.0.1:" + server.server.metricsAddress().orElseThrow().getPort()
                    + "/debug/derp-clients/";
            JsonNode all = json(get(base + "?format=json&sort=key"));
            assertEquals(2, all.size());
            JsonNode first = all.get(0);
            assertEquals("127.0.0.1", first.get("address").asString());
            assertTrue(first.get("ageSeconds").asLong() >= 0);
            assertTrue(first.get("bytesReceived").asLong() > 0 && first.get("bytesSent").asLong() > 0);
            String homeKey = home.key.publicKey().toText();
            JsonNode mine = json(get(base + "?format=json&key=" + homeKey.substring(8, 20)));
            assertEquals(1, mine.size());
            assertEquals(homeKey, mine.get(0).get("key").asString());
            assertTrue(mine.get(0).get("home").asBoolean());
            assertEquals(2, json(get(base + "?format=json&prefix=127.0.0.0/8")).size());
            assertEquals(0, json(get(base + "?format=json&prefix=10.0.0.0/8")).size());
            assertEquals(2, json(get(base + "?format=json&address=127.0.0.1")).size());
            JsonNode homeFirst = json(get(base + "?format=json&sort=-home"));
            assertEquals(homeKey, homeFirst.get(0).get("key").asString());
            List<String> keys = List.of(all.get(0).get("key").asString(), all.get(1).get("key").asString());
            assertEquals(keys.stream().sorted().toList(), keys);
            HttpResponse<String> page = get(base);
            assertTrue(page.headers().firstValue("Content-Type").orElseThrow().startsWith("text/html"));
            assertTrue(page.body().contains(homeKey) && page.body().contains("<table"), page.body());
            assertEquals(400, get(base + "?sort=colour").statusCode());
        }
    }

    private static HttpResponse<String> get(String url) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static JsonNode json(HttpResponse<String> response) {
        assertEquals(200, response.statusCode(), response.body());
        return JsonMapper.builder().build().readTree(response.body());
    }
}
