package io.meshcontrol.relay.map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.address.EgressGuard;
import io.meshcontrol.core.testing.LoopbackHttpServer;
import io.meshcontrol.core.wire.DERPMap;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The last good map of each source stays in force; known URLs are not fetched again by a settings change. */
class DerpMapSourcesTest {

    @TempDir
    Path folder;
    private final LoopbackHttpServer server = new LoopbackHttpServer();
    private final MapUrlFetcher fetcher = new MapUrlFetcher(new EgressGuard(false, true));

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void unreachableSourceKeepsItsPreviousMap() {
        server.serve("/map", MapMaps.region(900, "derp.example"));
        DerpMapSources sources = new DerpMapSources(fetcher, List.of());
        List<String> urls = List.of(server.url("/map"));
        sources.keep(sources.fetchAdded(urls, List.of()));
        server.answer("/map", new LoopbackHttpServer.Answer(503, Map.of(), new byte[0]));
        List<String> problems = sources.refresh(urls).problems();
        assertEquals(1, problems.size());
        assertTrue(problems.getFirst().contains("503"), problems.toString());
        DERPMap map = DerpMapMerge.merge(sources.layers(urls));
        assertEquals(List.of(900), List.copyOf(map.regions().keySet()));
    }

    @Test
    void refreshTakesTheNewMapWhenTheSourceAnswers() {
        server.serve("/map", MapMaps.region(900, "derp.example"));
        DerpMapSources sources = new DerpMapSources(fetcher, List.of());
        List<String> urls = List.of(server.url("/map"));
        sources.keep(sources.fetchAdded(urls, List.of()));
        server.serve("/map", MapMaps.region(901, "derp.example"));
        assertEquals(List.of(), sources.refresh(urls).problems());
        assertEquals(List.of(901), List.copyOf(DerpMapMerge.merge(sources.layers(urls)).regions().keySet()));
    }

    @Test
    void knownUrlsAreNotFetchedAgainAndNewOnesFailWhole() {
        server.serve("/a", MapMaps.region(900, "a.example")).serve("/b", MapMaps.region(901, "b.example"));
        DerpMapSources sources = new DerpMapSources(fetcher, List.of());
        sources.keep(sources.fetchAdded(List.of(server.url("/a")), List.of()));
        sources.keep(sources.fetchAdded(List.of(server.url("/a"), server.url("/b")),
                List.of(server.url("/a"))));
        assertEquals(1, server.requestsFor("/a"), "the kept map of /a was reused");
        assertThrows(MapSourceException.class, () -> sources.fetchAdded(List.of(server.url("/a"), server.url("/gone")),
                List.of(server.url("/a"))));
    }

    @Test
    void aChangeThatAddsNoUrlFetchesNothingEvenForAUrlNeverReached() {
        String unreachable = server.url("/gone");
        DerpMapSources sources = new DerpMapSources(fetcher, List.of());
        assertEquals(1, sources.refresh(List.of(unreachable)).problems().size(), "in force, never fetched");
        assertEquals(Map.of(), sources.fetchAdded(List.of(unreachable), List.of(unreachable)));
        assertEquals(1, server.requestsFor("/gone"), "only the refresh asked");
        assertThrows(MapSourceException.class, () -> sources.fetchAdded(List.of(unreachable), List.of()),
                "added, it must be fetched");
    }

    @Test
    void urlMapsComeFirstAndFilesWinOverThem() throws Exception {
        server.serve("/map", MapMaps.region(900, "from-url.example"));
        Path file = folder.resolve("local.yaml");
        Files.writeString(file, "regions:\n  900:\n    regioncode: own\n    nodes:\n      - hostname: own.example\n");
        DerpMapSources sources = new DerpMapSources(fetcher, List.of(file));
        List<String> urls = List.of(server.url("/map"));
        sources.keep(sources.fetchAdded(urls, List.of()));
        assertEquals("own.example",
                DerpMapMerge.merge(sources.layers(urls)).regions().get(900).nodes().getFirst().hostName());
    }

    @Test
    void brokenFileAtRefreshKeepsItsPreviousMapButFailsAtStart() throws Exception {
        Path file = folder.resolve("local.yaml");
        Files.writeString(file, "regions:\n  900:\n    regioncode: own\n    nodes:\n      - hostname: own.example\n");
        DerpMapSources sources = new DerpMapSources(fetcher, List.of(file));
        Files.writeString(file, "regions: [");
        assertEquals(1, sources.refresh(List.of()).problems().size());
        assertEquals(List.of(900), List.copyOf(DerpMapMerge.merge(sources.layers(List.of())).regions().keySet()));
        assertThrows(MapSourceException.class, () -> new DerpMapSources(fetcher, List.of(file)));
    }
}
