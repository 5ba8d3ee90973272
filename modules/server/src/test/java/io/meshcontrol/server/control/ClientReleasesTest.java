package io.meshcontrol.server.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.address.EgressGuard;
import io.meshcontrol.core.testing.LoopbackHttpServer;
import io.meshcontrol.relay.map.MapUrlFetcher;
import io.meshcontrol.server.testing.TestServer;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code client_updates}: the release lookup through the egress guard, and the server passing it to map streams. */
class ClientReleasesTest {

    private static final EgressGuard LOOPBACK_ALLOWED = new EgressGuard(false, true);

    @TempDir
    Path folder;

    @Test
    void readsTheReleaseFromThePackageIndexShape() {
        try (LoopbackHttpServer index = new LoopbackHttpServer()
                .serve("/stable/", "{\"TarballsVersion\": \"1.90.9\", \"Tarballs\": {}}")
                .serve("/other", "{\"Version\": \"1.92.1\"}")) {
            assertEquals("1.90.9", new ClientReleases(index.url("/stable/?mode=json"), LOOPBACK_ALLOWED,
                    MapUrlFetcher.Resolver.literalsOnly()).latest());
            assertEquals("1.92.1", new ClientReleases(index.url("/other"), LOOPBACK_ALLOWED,
                    MapUrlFetcher.Resolver.literalsOnly()).latest());
        }
    }

    @Test
    void theEgressGuardRefusesLoopbackUnlessAllowed() {
        try (LoopbackHttpServer index = new LoopbackHttpServer().serve("/stable/", "{\"TarballsVersion\": \"1.90.9\"}")) {
            var refused = assertThrows(ClientReleases.LookupFailed.class, () -> new ClientReleases(
                    index.url("/stable/"), EgressGuard.DEFAULT, MapUrlFetcher.Resolver.literalsOnly()).latest());
            assertTrue(refused.getMessage().contains("does not fetch from"), refused.getMessage());
            assertEquals(0, index.requestsFor("/stable/"));
        }
    }

    @Test
    void answersWithoutARelease() {
        try (LoopbackHttpServer index = new LoopbackHttpServer()
                .serve("/none", "{\"Tarballs\": {}}")
                .serve("/garbage", "{\"TarballsVersion\": \"<script>\"}")
                .answer("/missing", new LoopbackHttpServer.Answer(404, Map.of(), new byte[0]))) {
            for (String path : new String[] {"/none", "/garbage", "/missing"}) {
                var failed = assertThrows(ClientReleases.LookupFailed.class, () -> new ClientReleases(index.url(path),
                        LOOPBACK_ALLOWED, MapUrlFetcher.Resolver.literalsOnly()).latest());
                assertTrue(failed.getMessage().startsWith(index.url(path)), failed.getMessage());
            }
        }
    }

    @Test
    void theServerLooksTheReleaseUpAtStartAndPutsItIntoTheMapContext() throws Exception {
        try (LoopbackHttpServer index = new LoopbackHttpServer().serve("/stable/", "{\"TarballsVersion\": \"1.90.9\"}");
             TestServer server = TestServer.in(folder).set("client_updates.check", "true")
                     .set("client_updates.url", index.url("/stable/?mode=json"))
                     .set("egress.allow_loopback_targets", "true").start()) {
            // The first lookup runs on the housekeeping thread right after the start.
            while (server.server.mapContext().latestClientVersion() == null) {
                Thread.sleep(20);
            }
            assertEquals("1.90.9", server.server.mapContext().latestClientVersion());
            assertEquals(1, index.requestsFor("/stable/"));
        }
    }
}
