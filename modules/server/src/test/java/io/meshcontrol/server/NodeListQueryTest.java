package io.meshcontrol.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.api.ApiJson;
import io.meshcontrol.api.MeshClient;
import io.meshcontrol.api.NodeList;
import io.meshcontrol.api.NodeView;
import io.meshcontrol.api.PreAuthKeyRequest;
import io.meshcontrol.api.UserRequest;
import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.key.MachinePrivateKey;
import io.meshcontrol.core.key.NodePrivateKey;
import io.meshcontrol.core.state.Settings;
import io.meshcontrol.core.testing.Machine;
import io.meshcontrol.core.testing.MovableClock;
import io.meshcontrol.core.testing.StoredNodes;
import io.meshcontrol.server.testing.TestServer;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code GET /api/v1/node}: the client facts of each node, and the list filtered, sorted and paged by query parameters
 * (docs/api.md, "Listing nodes").
 */
class NodeListQueryTest {

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
        admin.createUser(new UserRequest("thor", null, null, "member"));
        key = admin.createPreAuthKey(new PreAuthKeyRequest("odin", null, true, false, false, "", null)).secret();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private Node join(String name, String os, String version, String extra) {
        return Machine.named(name).hostinfo("{\"Hostname\":\"" + name + "\",\"OS\":\"" + os + "\",\"OSVersion\":\"v-"
                + name + "\",\"IPNVersion\":\"" + version + "-tdeadbeef\"" + extra + "}").join(server.network, key);
    }

    private NodeList list(String query) {
        HttpResponse<String> answer = server.request("GET", "/api/v1/node" + query, server.localToken(), null);
        assertEquals(200, answer.statusCode(), answer.body());
        return JSON.readValue(answer.body(), NodeList.class);
    }

    private List<String> names(String query) {
        return list(query).nodes().stream().map(NodeView::name).toList();
    }

    @Test
    void eachNodeShowsWhatItsClientReportsAndWhetherAnUpdateIsAvailable() {
        Node old = join("old", "linux", "1.80.3",
                ",\"NetInfo\":{\"PreferredDERP\":1,\"WorkingUDP\":false}");
        join("fresh", "windows", "1.92.0", "");
        server.network.nodes().updateFromClient(old.id(), null, List.of("198.51.100.7:41641"), null, null);

        NodeView.ClientView unknownLatest = admin.node(Long.toString(old.id())).client();
        assertEquals("linux", unknownLatest.os());
        assertEquals("v-old", unknownLatest.osVersion());
        assertEquals("1.80.3", unknownLatest.version());
        assertNull(unknownLatest.latestVersion(), "no release lookup has answered");
        assertNull(unknownLatest.updateAvailable(), "unknown, not false, while no release is known");
        assertEquals(List.of("198.51.100.7:41641"), unknownLatest.endpoints());
        assertEquals(1, unknownLatest.homeRegion());
        assertEquals("unknown", unknownLatest.connection(), "offline: what it last said of UDP is stale");

        server.network.mapContext().latestClientVersion("1.90.9");
        server.network.presence().connected(server.network.snapshots().current().node(old.id()).orElseThrow());
        NodeView.ClientView known = admin.node(Long.toString(old.id())).client();
        assertEquals("1.90.9", known.latestVersion());
        assertTrue(known.updateAvailable());
        assertEquals("relayed", known.connection(), "online and without working UDP: only through a relay");
        assertEquals(List.of("old"), names("?updateAvailable=true"));
        assertEquals(List.of("fresh"), names("?updateAvailable=false"));

        server.network.nodes().updateFromClient(old.id(), null, null,
                "{\"Hostname\":\"old\",\"OS\":\"linux\",\"IPNVersion\":\"1.92.0-tcafe\"}", null);
        assertEquals(List.of(), names("?updateAvailable=true"), "a new Hostinfo is read again, not the one listed before");
        assertEquals("1.92.0", admin.node(Long.toString(old.id())).client().version());
    }

    @Test
    void filtersCombineAndNameWhatTheyMatch() {
        join("web1", "linux", "1.80.3", ",\"RoutableIPs\":[\"0.0.0.0/0\",\"::/0\"]");
        join("web2", "linux", "1.102.5", ",\"RoutableIPs\":[\"10.1.0.0/16\"]");
        Node laptop = join("laptop", "macOS", "1.102.5", "");
        server.network.settings().update(Caller.localAdmin(), new Settings.Change(true, null, 3, null));
        join("waiting", "windows", "1.80.3", "");
        admin.setPolicy("{\"tagOwners\": {\"tag:dev\": [\"odin@\"]}}", null);
        admin.tagNode(Long.toString(laptop.id()), List.of("tag:dev"));

        assertEquals(List.of("web1", "web2"), names("?os=LINUX"));
        assertEquals(List.of("web1", "waiting"), names("?version=1.80"));
        assertEquals(List.of("web2", "laptop"), names("?version=1.102.5"));
        assertEquals(List.of(), names("?version=1.10"), "a version matches by whole parts");
        assertEquals(List.of("laptop"), names("?tag=dev"));
        assertEquals(List.of("laptop"), names("?tag=tag:dev"));
        assertEquals(List.of("web1", "web2", "waiting"), names("?user=odin"));
        assertEquals(List.of("web1"), names("?exitNode=true"));
        assertEquals(List.of("web2"), names("?subnetRouter=true"));
        assertEquals(List.of("web1", "web2"), names("?routesWaiting=true"));
        assertEquals(List.of("waiting"), names("?needsApproval=true"));
        assertEquals(List.of("waiting"), names("?keyExpiring=true"), "3 days left; the others never expire");
        assertEquals(List.of("web1", "web2", "laptop"), names("?keyExpiring=false"));
        clock.advance(Duration.ofDays(4));
        assertEquals(List.of(), names("?keyExpiring=true"), "an expired key is no longer expiring");
        assertEquals(List.of("waiting"), names("?expired=true"));
        assertEquals(List.of("web2"), names("?os=linux&subnetRouter=true&user=odin"));
        assertEquals(List.of("web1", "web2"), names("?q=WEB"));
        assertEquals(List.of("laptop"), names("?q=dev%20lap"), "every word must appear");
        assertEquals(List.of(), names("?online=true"));
        assertEquals(4, list("?online=false").total());
    }

    @Test
    void anyColumnSortsBothWaysWithAbsentValuesLast() {
        join("b", "windows", "1.9.0", "");
        clock.advance(Duration.ofMinutes(1));
        join("c", "linux", "1.80.3", "");
        clock.advance(Duration.ofMinutes(1));
        join("a", "macOS", "1.102.5", "");
        clock.advance(Duration.ofMinutes(1));
        Machine.named("bare").hostinfo("{\"Hostname\":\"bare\"}").join(server.network, key);

        assertEquals(List.of("b", "c", "a", "bare"), names(""), "without a sort: id order");
        assertEquals(List.of("a", "b", "bare", "c"), names("?sort=name"));
        assertEquals(List.of("c", "bare", "b", "a"), names("?sort=name&order=desc"));
        assertEquals(List.of("b", "c", "a", "bare"), names("?sort=version"), "numerically, part by part");
        assertEquals(List.of("a", "c", "b", "bare"), names("?sort=version&order=desc"), "absent still last");
        assertEquals(List.of("c", "a", "b", "bare"), names("?sort=os"));
        assertEquals(List.of("bare", "a", "c", "b"), names("?sort=createdAt&order=desc"));
        for (String column : List.of("hostname", "user", "ipv4", "lastSeen", "keyExpiry", "region")) {
            assertEquals(4, names("?sort=" + column).size(), column);
        }
    }

    @Test
    void aPageIsASliceOfTheSortedMatchesWithTheirTotal() {
        for (int i = 0; i < 12; i++) {
            join(String.format("m%02d", i), "linux", "1.80.3", "");
        }
        NodeList page = list("?sort=name&order=desc&offset=5&limit=3");
        assertEquals(12, page.total());
        assertEquals(List.of("m06", "m05", "m04"), page.nodes().stream().map(NodeView::name).toList());
        NodeList last = list("?sort=name&offset=10&limit=5");
        assertEquals(List.of("m10", "m11"), last.nodes().stream().map(NodeView::name).toList());
        assertEquals(List.of(), list("?offset=50&limit=5").nodes(), "past the end: an empty page");
        assertEquals(12, list("").nodes().size(), "no limit: all of them, as before");
        assertEquals(12, list("").total());
    }

    @Test
    void aBadValueOrAnUnknownParameterIsRefusedNamingIt() {
        for (var bad : List.of(List.of("?limit=0", "limit"), List.of("?limit=1001", "limit"),
                List.of("?limit=ten", "limit"), List.of("?offset=-1", "offset"), List.of("?sort=colour", "sort"),
                List.of("?order=up", "order"), List.of("?online=yes", "online"),
                List.of("?keyExpiring=1", "keyExpiring"), List.of("?colour=red", "colour"))) {
            HttpResponse<String> answer = server.request("GET", "/api/v1/node" + bad.get(0), server.localToken(),
                    null);
            assertEquals(400, answer.statusCode(), bad.get(0));
            assertTrue(answer.headers().firstValue("Content-Type").orElse("").startsWith("application/problem+json"));
            assertTrue(answer.body().contains(bad.get(1)), bad.get(0) + ": " + answer.body());
        }
        assertEquals(0, list("?q=").total(), "an empty search matches everything there is");
    }

    /**
     * 10,000 machines in the store ({@link StoredNodes}: registering them one by one takes minutes); the list reads
     * its nodes from the store, so they are all there for it.
     */
    @Test
    void aPageOfTenThousandMachinesIsTheRightOne() {
        int count = 10_000;
        long odin = server.network.users().requireByName("odin").id();
        long seeding = System.nanoTime();
        List<Node> nodes = new java.util.ArrayList<>();
        for (int i = 0; i < count; i++) {
            String name = String.format("n%05d", i);
            String hostinfo = "{\"Hostname\":\"" + name + "\",\"OS\":\"" + (i % 3 == 0 ? "windows" : "linux")
                    + "\",\"IPNVersion\":\"" + (i % 2 == 0 ? "1.80.3" : "1.102.5") + "-tdeadbeef\"}";
            nodes.add(new Node(0, "n" + i + "STORED", MachinePrivateKey.generate().publicKey(),
                    NodePrivateKey.generate().publicKey(), null, name, name, odin, List.of(),
                    "100.80." + (i / 250) + "." + (i % 250 + 1), "fd7a:115c:a1e0::ab:" + Integer.toHexString(i),
                    hostinfo, List.of(), true, false, null, Node.RegisterMethod.API, clock.instant(), null,
                    null, List.of(), List.of(), false, null, false));
        }
        StoredNodes.write(folder.resolve("data/db.sqlite"), nodes);
        seeding = System.nanoTime() - seeding;
        long listing = System.nanoTime();
        NodeList page = list("?os=linux&version=1.102&sort=name&order=desc&offset=100&limit=50");
        listing = System.nanoTime() - listing;
        // linux: i % 3 != 0; 1.102: i odd. Those names from the top, skipping 100.
        List<String> expected = java.util.stream.IntStream.iterate(count - 1, i -> i >= 0, i -> i - 1)
                .filter(i -> i % 3 != 0 && i % 2 == 1).skip(100).limit(50)
                .mapToObj(i -> String.format("n%05d", i)).toList();
        assertEquals(expected, page.nodes().stream().map(NodeView::name).toList());
        assertEquals((int) java.util.stream.IntStream.range(0, count).filter(i -> i % 3 != 0 && i % 2 == 1).count(),
                page.total());
        assertTrue(page.nodes().stream().allMatch(v -> "odin".equals(v.user()) && "linux".equals(v.client().os())));
        long again = System.nanoTime();
        list("?os=linux&version=1.102&sort=name&order=desc&offset=200&limit=50");
        again = System.nanoTime() - again;
        long whole = System.nanoTime();
        assertEquals(count, list("").nodes().size(), "unpaged: every one of them");
        whole = System.nanoTime() - whole;
        // Figures only, never judged (no timed assertions).
        System.out.printf("%d machines: stored in %d ms; a filtered, sorted page of 50 in %d ms, the next"
                + " in %d ms; the whole list in %d ms%n", count, seeding / 1_000_000, listing / 1_000_000,
                again / 1_000_000, whole / 1_000_000);
    }
}
