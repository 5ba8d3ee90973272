package io.meshcontrol.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.testing.Await;
import io.meshcontrol.core.testing.LoopbackHttpServer;
import io.meshcontrol.core.testing.MovableClock;
import io.meshcontrol.core.testing.PostgresCluster;
import io.meshcontrol.relay.map.MapUrlFetcher;
import io.meshcontrol.server.testing.TestServer;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the server fetches from outside for the whole network (the DERP maps at map URLs, the latest client release) is
 * fetched by the instance holding the singleton lease and stored: the other instances use the stored copy without
 * fetching, a copy fetched on any instance reaches the others, and when the holder stops the instance that takes the
 * lease over fetches once the stored copy is due. Each instance checks the fetched address through a resolver of its
 * own that counts, so the test sees which instance fetched.
 */
class SharedFetchesTest {

    @TempDir
    Path folder;

    private Map<String, String> database;

    @BeforeEach
    void database() {
        Assumptions.assumeTrue(PostgresCluster.installed(), "PostgreSQL is not installed (run-tests installs it)");
        database = PostgresCluster.shared().newEmptyDatabaseConfig();
    }

    /**
     * Answers IP literals, as test servers do, and {@code localhost}, the fetched sources' host, counting: every fetch
     * looks its host up first.
     */
    private static MapUrlFetcher.Resolver counting(AtomicInteger lookups) {
        return host -> {
            if (host.equals("localhost")) {
                lookups.incrementAndGet();
                return new InetAddress[] {InetAddress.getLoopbackAddress()};
            }
            return MapUrlFetcher.Resolver.literalsOnly().resolve(host);
        };
    }

    /** {@code path} at {@code source}, by the name {@code localhost}. */
    private static String byName(LoopbackHttpServer source, String path) {
        return source.url(path).replace("127.0.0.1", "localhost");
    }

    private TestServer.Builder instance(String name, AtomicInteger lookups, MovableClock clock) {
        TestServer.Builder builder = TestServer.in(folder.resolve(name)).resolver(counting(lookups)).clock(clock)
                .set("egress.allow_loopback_targets", "true");
        database.forEach(builder::set);
        return builder;
    }

    private static String map(int... regions) {
        StringBuilder json = new StringBuilder("{\"Regions\":{");
        for (int i = 0; i < regions.length; i++) {
            int id = regions[i];
            json.append(i == 0 ? "" : ",").append('"').append(id).append("\":{\"RegionID\":").append(id)
                    .append(",\"RegionCode\":\"r").append(id).append("\",\"Nodes\":[{\"Name\":\"").append(id)
                    .append("a\",\"RegionID\":").append(id).append(",\"HostName\":\"derp").append(id)
                    .append(".example.com\"}]}");
        }
        return json.append("}}").toString();
    }

    private static boolean hasRegion(TestServer server, int region) {
        var map = server.server.mapContext().derpMap();
        return map != null && map.regions().containsKey(region);
    }

    @Test
    void derpMapsAreFetchedByTheLeaseHolderAndStoredForTheOthers() throws Exception {
        AtomicInteger lookupsA = new AtomicInteger();
        AtomicInteger lookupsB = new AtomicInteger();
        try (LoopbackHttpServer source = new LoopbackHttpServer().serve("/derpmap.json", map(900))) {
            String url = byName(source, "/derpmap.json");
            try (TestServer a = instance("a", lookupsA, MovableClock.running()).set("derp.urls", url).start()) {
                Await.until("A holds the lease and fetched the map", () -> hasRegion(a, 900));
                assertEquals(1, source.requestsFor("/derpmap.json"));

                try (TestServer b = instance("b", lookupsB, MovableClock.running()).set("derp.urls", url).start()) {
                    assertTrue(hasRegion(b, 900), "B starts with the map A stored");
                    assertEquals(0, lookupsB.get(), "B fetched nothing");

                    // A refresh asked of B fetches there; A follows the copy B stored.
                    source.serve("/derpmap.json", map(900, 901));
                    assertEquals(0, b.adminClient().refreshDerp().problems().size());
                    assertEquals(1, lookupsB.get());
                    Await.until("A follows the map B fetched", () -> hasRegion(a, 901));
                    assertEquals(1, lookupsA.get(), "A fetched nothing more");
                }
            }
        }
    }

    @Test
    void theClientReleaseIsLookedUpByTheLeaseHolderAndTheNextHolderTakesOverWhenItIsDue() throws Exception {
        AtomicInteger lookupsA = new AtomicInteger();
        AtomicInteger lookupsB = new AtomicInteger();
        MovableClock clockB = MovableClock.running();
        try (LoopbackHttpServer index = new LoopbackHttpServer()
                .serve("/a/", "{\"TarballsVersion\": \"1.90.9\"}")
                .serve("/b/", "{\"TarballsVersion\": \"1.92.1\"}")) {
            // Each instance asks its own path, so the index sees which one looked the release up.
            TestServer a = instance("a", lookupsA, MovableClock.running()).set("client_updates.check", "true")
                    .set("client_updates.url", byName(index, "/a/")).start();
            try (TestServer b = instance("b", lookupsB, clockB).set("client_updates.check", "true")
                    .set("client_updates.url", byName(index, "/b/")).start()) {
                try {
                    Await.until("A looked the release up",
                            () -> "1.90.9".equals(a.server.mapContext().latestClientVersion()));
                    Await.until("B uses the release A stored",
                            () -> "1.90.9".equals(b.server.mapContext().latestClientVersion()));
                    assertEquals(1, index.requestsFor("/a/"));
                    assertEquals(0, index.requestsFor("/b/"), "B looked nothing up");
                    assertEquals(0, lookupsB.get());
                } finally {
                    a.close();
                }
                // B takes the lease over; the stored release is due by B's clock, so B looks it up at once.
                clockB.advance(Duration.ofHours(25));
                Await.until("B took the lookup over",
                        () -> "1.92.1".equals(b.server.mapContext().latestClientVersion()));
                assertEquals(1, index.requestsFor("/b/"));
            }
        }
    }
}
