package io.meshcontrol.core.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.model.App;
import io.meshcontrol.core.model.DnsSettings;
import io.meshcontrol.core.model.VipService;
import io.meshcontrol.core.netmap.context.MapContext;
import io.meshcontrol.core.netmap.context.MapDns;
import io.meshcontrol.core.testing.TestNetwork;
import io.meshcontrol.core.wire.DERPMap;
import io.meshcontrol.core.wire.DERPRegion;
import io.meshcontrol.core.wire.DNSRecord;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The map context is state like any other: a saved change of DNS, services or apps, and a new relay map or client
 * release, is put in place by {@code core.state} and published on the change feed with the new context, with no
 * listener set by anyone else; a change that does not commit publishes nothing.
 */
class MapContextStateTest {

    private static final MapOptions OPTIONS = new MapOptions("mesh.test",
            List.of(new DNSRecord("grafana.mesh.test", "A", "100.64.0.3")), null, true);

    @TempDir
    Path folder;
    TestNetwork net;
    Network network;
    final List<StateChange.MapContextChanged> published = new CopyOnWriteArrayList<>();

    @BeforeEach
    void setUp() {
        net = new TestNetwork(folder, NetworkOptions.defaults().withMapOptions(OPTIONS));
        network = net.network;
        network.snapshots().subscribe(change -> {
            if (change instanceof StateChange.MapContextChanged context) {
                published.add(context);
            }
        });
    }

    /** The one change published: its context is the one in force, and the snapshot is the feed's. */
    private MapContext onlyPublished() {
        assertEquals(1, published.size(), "one change, one publication: " + published);
        StateChange.MapContextChanged change = published.getFirst();
        assertSame(network.mapContext().current(), change.context(), "the feed carries the context in force");
        assertSame(network.snapshots().current(), change.snapshot());
        return change.context();
    }

    @Test
    void theContextStartsWithTheConfigurationsPartsAndTheSavedState() {
        MapContext context = network.mapContext().current();
        assertEquals("mesh.test", context.baseDomain());
        assertEquals(network.tailnetId(), context.tailnetId());
        assertTrue(context.httpsCertificates());
        assertEquals(MapDns.of(network.dns().current(), "mesh.test", OPTIONS.extraRecords()), context.dnsConfig());
        assertTrue(context.derpMap().regions().isEmpty(), "no relay map until the relay publishes one");
        assertTrue(published.isEmpty());
    }

    @Test
    void aSavedDnsChangeReachesTheContextAndTheFeed() {
        DnsSettings saved = network.dns().update(net.admin, current -> current
                .withNameservers(List.of(new DnsSettings.Resolver("1.1.1.1", false))));

        MapContext context = onlyPublished();
        assertEquals(MapDns.of(saved, "mesh.test", OPTIONS.extraRecords()), context.dnsConfig());
        assertEquals(List.of("mesh.test"), context.dnsConfig().domains(), "the base domain comes from the options");
        assertTrue(context.dnsConfig().extraRecords().contains(OPTIONS.extraRecords().getFirst()));
    }

    @Test
    void aRefusedDnsChangePublishesNothing() {
        DnsSettings before = network.dns().current();
        assertThrows(MeshException.class, () -> network.dns().update(net.admin,
                current -> new DnsSettings(!current.magicDns(), false, List.of(), Map.of(), List.of())));
        assertTrue(published.isEmpty());
        assertEquals(MapDns.of(before, "mesh.test", OPTIONS.extraRecords()),
                network.mapContext().current().dnsConfig());
    }

    @Test
    void aSavedServiceReachesTheContextAndTheFeed() {
        VipService web = network.vipServices().put(net.admin,
                new VipService("svc:web", null, null, "", Map.of(), List.of("tcp:443"), List.of()), List.of());

        assertEquals(List.of(web), onlyPublished().services().services());
    }

    @Test
    void aCreatedAppReachesTheContextAndTheFeed() {
        App app = network.apps().create(net.admin, new App(0, "github", null, List.of("github.com"), List.of(),
                List.of(), null, null)).app();

        assertEquals(List.of(app), onlyPublished().apps().apps());
    }

    @Test
    void aNewRelayMapIsPublished() {
        DERPMap map = new DERPMap(null, Map.of(999, new DERPRegion(999, "mesh", "Mesh", 0, 0, false, false,
                List.of())), false);
        network.mapContext().derpMap(map);

        assertEquals(map, onlyPublished().derpMap());
    }

    @Test
    void aNewClientReleaseIsPublishedOnceAndTheSameReleaseAgainIsNot() {
        network.mapContext().latestClientVersion("1.90.9");
        network.mapContext().latestClientVersion("1.90.9");

        assertEquals("1.90.9", onlyPublished().latestClientVersion());
    }
}
