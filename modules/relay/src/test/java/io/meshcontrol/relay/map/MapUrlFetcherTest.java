package io.meshcontrol.relay.map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.address.EgressGuard;
import io.meshcontrol.core.testing.LoopbackHttpServer;
import io.meshcontrol.core.testing.RefusingPort;
import java.net.InetAddress;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Map URLs: loopback, link-local and unspecified addresses refused (checked on the resolved address), no redirects,
 * at most 4 MiB. The map publisher is a loopback server of the test, which the default guard refuses; fetching
 * from it needs the guard with {@code allow_loopback_targets}, the test seam these tests use.
 */
class MapUrlFetcherTest {

    private final LoopbackHttpServer server = new LoopbackHttpServer();
    private final MapUrlFetcher loopbackAllowed = new MapUrlFetcher(new EgressGuard(false, true));

    @AfterEach
    void stop() {
        server.close();
    }

    private static String refusal(MapUrlFetcher fetcher, String url) {
        return assertThrows(MapSourceException.class, () -> fetcher.fetch(url)).getMessage();
    }

    @Test
    void fetchesAndParsesTheVendorShape() {
        server.serve("/map", MapMaps.region(900, "derp.example"));
        MapLayer layer = loopbackAllowed.fetch(server.url("/map")).layer();
        assertEquals("derp.example", layer.regions().get(900).nodes().getFirst().hostName());
    }

    @Test
    void loopbackIsRefusedBeforeAnyRequest() {
        server.serve("/map", MapMaps.region(900, "derp.example"));
        String message = refusal(new MapUrlFetcher(EgressGuard.DEFAULT), server.url("/map"));
        assertTrue(message.contains("loopback"), message);
        assertEquals(0, server.requests.size(), "nothing was sent");
    }

    @Test
    void anUnreachableMapSaysHowToRunOffline() throws Exception {
        int closedPort = RefusingPort.number();
        String message = refusal(loopbackAllowed, "http://127.0.0.1:" + closedPort + "/derpmap/default");
        assertTrue(message.startsWith("cannot fetch DERP map http://127.0.0.1:" + closedPort
                + "/derpmap/default: the connection was refused"), message);
        assertTrue(message.contains("derp.urls: []") && message.contains("svc derp set --url \"\""), message);
        String unknown = refusal(new MapUrlFetcher(EgressGuard.DEFAULT, MapUrlFetcher.Resolver.literalsOnly()),
                "https://controlplane.example/derpmap/default");
        assertTrue(unknown.contains("unknown host") && unknown.contains(MapUrlFetcher.OFFLINE_HINT), unknown);
        assertTrue(!refusal(loopbackAllowed, server.url("/missing")).contains("internet"),
                "a source that answers is not an offline problem");
    }

    @Test
    void namesResolvingToRefusedAddressesAreRefused() throws Exception {
        // The resolver stands in for DNS: no lookup leaves this machine.
        Map<String, InetAddress> dns = Map.of(
                "metadata.example", InetAddress.getByAddress("metadata.example", new byte[] {(byte) 169, (byte) 254, (byte) 169, (byte) 254}),
                "zero.example", InetAddress.getByAddress("zero.example", new byte[4]),
                "local.example", InetAddress.getByAddress("local.example", new byte[] {127, 0, 0, 1}),
                "v6local.example", InetAddress.getByName("fe80::1"));
        MapUrlFetcher fetcher = new MapUrlFetcher(EgressGuard.DEFAULT, host -> new InetAddress[] {dns.get(host)});
        assertTrue(refusal(fetcher, "https://metadata.example/map").contains("link-local"));
        assertTrue(refusal(fetcher, "https://v6local.example/map").contains("link-local"));
        assertTrue(refusal(fetcher, "https://zero.example/map").contains("unspecified"));
        assertTrue(refusal(fetcher, "https://local.example/map").contains("loopback"));
        assertTrue(refusal(new MapUrlFetcher(EgressGuard.DEFAULT), "http://[::1]:1/map").contains("loopback"));
        assertTrue(refusal(new MapUrlFetcher(EgressGuard.DEFAULT), "http://0.0.0.0:1/map").contains("unspecified"));
    }

    @Test
    void redirectsAreNotFollowed() {
        server.serve("/final", MapMaps.region(900, "derp.example"));
        server.answer("/moved", new LoopbackHttpServer.Answer(302, Map.of("Location", server.url("/final")), new byte[0]));
        String message = refusal(loopbackAllowed, server.url("/moved"));
        assertTrue(message.contains("redirect"), message);
        assertEquals(0, server.requestsFor("/final"));
    }

    @Test
    void mapsLargerThanFourMebibytesAreRefused() {
        byte[] big = new byte[MapUrlFetcher.MAX_BYTES + 1];
        java.util.Arrays.fill(big, (byte) ' ');
        server.answer("/big", new LoopbackHttpServer.Answer(200, Map.of(), big));
        String message = refusal(loopbackAllowed, server.url("/big"));
        assertTrue(message.contains("larger than 4 MiB"), message);
    }

    @Test
    void aRefusedAnswerIsDescribedWithoutQuotingIt() {
        String secret = "AKIAsecretFromTheRemoteSide";
        server.answer("/html", new LoopbackHttpServer.Answer(200, Map.of(), ("<html>" + secret + "</html>").getBytes()));
        server.answer("/token", new LoopbackHttpServer.Answer(200, Map.of(), (secret + " {}").getBytes()));
        server.answer("/ids", new LoopbackHttpServer.Answer(200, Map.of(),
                ("{\"Regions\": {\"" + secret + "\": null}}").getBytes()));
        server.answer("/denied", new LoopbackHttpServer.Answer(403, Map.of(), secret.getBytes()));
        for (String path : new String[] {"/html", "/token", "/ids", "/denied"}) {
            MapSourceException refused = assertThrows(MapSourceException.class,
                    () -> loopbackAllowed.fetch(server.url(path)));
            String message = refused.getMessage();
            assertTrue(!message.contains(secret) && !message.contains("AKIA"), path + ": " + message);
            assertTrue(refused.getCause() == null || !String.valueOf(refused.getCause()).contains(secret), path);
        }
        assertTrue(refusal(loopbackAllowed, server.url("/html")).endsWith("is not valid JSON at line 1, column 1"),
                refusal(loopbackAllowed, server.url("/html")));
        assertTrue(refusal(loopbackAllowed, server.url("/ids")).endsWith("a region id is not a positive number"));
        assertTrue(refusal(loopbackAllowed, server.url("/denied")).endsWith("answered HTTP 403"));
    }

    @Test
    void failuresNameTheUrlWithoutCredentials() {
        String message = refusal(loopbackAllowed, server.url("/missing").replace("http://", "http://user:secret@")
                + "?token=abc");
        assertTrue(message.contains("HTTP 404"), message);
        assertTrue(message.contains(server.url("/missing")), message);
        assertTrue(!message.contains("secret") && !message.contains("token"), message);
    }

    @Test
    void userInfoIsSentAsBasicAuthentication() {
        server.serve("/private", MapMaps.region(900, "derp.example"));
        loopbackAllowed.fetch(server.url("/private").replace("http://", "http://reader:pa%40ss@") + "?v=1");
        LoopbackHttpServer.Request request = server.requests.getFirst();
        assertEquals("/private?v=1", request.target());
        assertEquals("Basic " + Base64.getEncoder().encodeToString("reader:pa@ss".getBytes()), request.headers().get("authorization"));
    }

    @Test
    void theTestResolverAnswersLiteralsAndLooksUpNoName() throws Exception {
        MapUrlFetcher.Resolver resolver = MapUrlFetcher.Resolver.literalsOnly();
        assertEquals("192.0.2.1", resolver.resolve("192.0.2.1")[0].getHostAddress());
        assertEquals(InetAddress.getByName("2001:db8::1"), resolver.resolve("2001:db8::1")[0]);
        assertThrows(java.net.UnknownHostException.class, () -> resolver.resolve("derp.example.com"));
    }
}
