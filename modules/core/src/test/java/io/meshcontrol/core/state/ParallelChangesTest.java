package io.meshcontrol.core.state;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.model.App;
import io.meshcontrol.core.model.DerpSettings;
import io.meshcontrol.core.model.DnsSettings;
import io.meshcontrol.core.model.LogStream;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.model.PostureAttribute;
import io.meshcontrol.core.model.Role;
import io.meshcontrol.core.model.TailnetSettings;
import io.meshcontrol.core.model.VipService;
import io.meshcontrol.core.netmap.context.MapContext;
import io.meshcontrol.core.netmap.context.MapDns;
import io.meshcontrol.core.testing.AuthKey;
import io.meshcontrol.core.testing.Machine;
import io.meshcontrol.core.testing.TestNetwork;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntFunction;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Many callers changing one setting at once, as OpenTofu applies resources in parallel: every change that was
 * acknowledged is there afterwards, because each one reads, changes and saves under the one writer ({@link Writer}).
 */
class ParallelChangesTest {

    private static final int WRITERS = 24;
    private static final int EMBEDDED_REGION = 999;

    @TempDir
    Path folder;
    TestNetwork net;

    @BeforeEach
    void setUp() {
        net = new TestNetwork(folder);
    }

    /** Runs {@code WRITERS} changes released together, each on its own thread, and waits for all of them. */
    private static void atOnce(IntFunction<Runnable> change) throws Exception {
        CountDownLatch start = new CountDownLatch(1);
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> done = new ArrayList<>();
            for (int i = 0; i < WRITERS; i++) {
                Runnable one = change.apply(i);
                done.add(threads.submit(() -> {
                    start.await();
                    one.run();
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> acknowledged : done) {
                acknowledged.get();
            }
        }
    }

    private static String domain(int i) {
        return "d" + i + ".example";
    }

    @Test
    void parallelDnsChangesOfDifferentPartsAllStay() throws Exception {
        Dns dns = net.network.dns();
        List<MapContext> heard = new CopyOnWriteArrayList<>();
        net.network.snapshots().subscribe(change -> {
            if (change instanceof StateChange.MapContextChanged context) {
                heard.add(context.context());
            }
        });
        atOnce(i -> () -> dns.update(net.admin, current -> switch (i % 3) {
            case 0 -> {
                Map<String, List<DnsSettings.Resolver>> split = new LinkedHashMap<>(current.splitDns());
                split.put(domain(i), List.of(new DnsSettings.Resolver("10.0.0." + (i + 1), false)));
                yield current.withSplitDns(split);
            }
            case 1 -> {
                List<String> paths = new ArrayList<>(current.searchPaths());
                paths.add(domain(i));
                yield current.withSearchPaths(paths);
            }
            default -> {
                List<DnsSettings.Resolver> nameservers = new ArrayList<>(current.nameservers());
                nameservers.add(new DnsSettings.Resolver("192.0.2." + (i + 1), false));
                yield current.withNameservers(nameservers);
            }
        }));

        DnsSettings after = dns.current();
        for (int i = 0; i < WRITERS; i++) {
            String what = "change " + i;
            switch (i % 3) {
                case 0 -> assertEquals(List.of(new DnsSettings.Resolver("10.0.0." + (i + 1), false)),
                        after.splitDns().get(domain(i)), what);
                case 1 -> assertEquals(true, after.searchPaths().contains(domain(i)), what);
                default -> assertEquals(true, after.nameservers().contains(
                        new DnsSettings.Resolver("192.0.2." + (i + 1), false)), what);
            }
        }
        assertEquals(WRITERS, heard.size(), "every change put in force");
        assertEquals(MapDns.of(after, "", List.of()), heard.getLast().dnsConfig(), "in the order they were saved");
        assertEquals(after, net.reopened(folder).dns().current(), "as saved");
        assertEquals(WRITERS, auditEntries("dns.update"));
    }

    @Test
    void parallelChangesOfDifferentTailnetSettingsAllStay() throws Exception {
        atOnce(i -> () -> net.network.settings().update(net.admin, switch (i % 4) {
            case 0 -> new Settings.Change(true, null, null, null);
            case 1 -> new Settings.Change(null, true, null, null);
            case 2 -> new Settings.Change(null, null, 30, null);
            default -> new Settings.Change(null, null, null, true);
        }));
        assertEquals(new TailnetSettings(true, true, 30, true), net.network.settings().get(net.admin));
        assertEquals(WRITERS, auditEntries("settings.update"));
    }

    @Test
    void parallelRelayAdditionsAllStay() throws Exception {
        SavedDerpSettings derp = net.network.savedDerpSettings();
        DerpSettings configured = new DerpSettings(List.of(), false, Duration.ofHours(24), true, null, null, true,
                false, "127.0.0.1:0", List.of());
        atOnce(i -> () -> derp.update(net.admin, configured, null, inForce -> {
            List<DerpSettings.CustomRelay> relays = new ArrayList<>(inForce.relays());
            relays.add(new DerpSettings.CustomRelay(900 + i, "r" + i, "relay" + i + ".example", null));
            return inForce.withRelays(relays);
        }, EMBEDDED_REGION));
        assertEquals(IntStream.range(0, WRITERS).mapToObj(i -> 900 + i).collect(Collectors.toSet()),
                derp.read().orElseThrow().relays().stream().map(DerpSettings.CustomRelay::regionId)
                        .collect(Collectors.toSet()));
    }

    @Test
    void ofParallelConditionalDerpWritesOnlyOneIsAcknowledged() throws Exception {
        SavedDerpSettings derp = net.network.savedDerpSettings();
        DerpSettings configured = new DerpSettings(List.of(), false, Duration.ofHours(24), true, null, null, true,
                false, "127.0.0.1:0", List.of());
        String read = SavedDerpSettings.etag(configured);
        List<DerpSettings> acknowledged = new CopyOnWriteArrayList<>();
        atOnce(i -> () -> {
            try {
                acknowledged.add(derp.update(net.admin, configured, read, inForce -> inForce.withRelays(List.of(
                        new DerpSettings.CustomRelay(900 + i, "r" + i, "relay" + i + ".example", null))),
                        EMBEDDED_REGION));
            } catch (MeshException e) {
                assertEquals(MeshException.Reason.PRECONDITION_FAILED, e.reason());
            }
        });
        assertEquals(1, acknowledged.size(), "the others read settings that had changed");
        assertEquals(acknowledged.getFirst(), derp.read().orElseThrow());
    }

    @Test
    void parallelPostureAttributesAllStay() throws Exception {
        net.user("odin", Role.MEMBER);
        Node node = net.join(Machine.named("laptop"), net.authKey(AuthKey.forUser("odin")));
        Posture posture = net.network.posture();
        atOnce(i -> () -> posture.setAttribute(net.admin, node.id(),
                new PostureAttribute("custom:a" + i, i, null, "")));
        assertEquals(WRITERS, posture.attributes(net.admin, node.id()).size());
    }

    @Test
    void parallelLogStreamWritesFindTheStreamTheOneBeforeLeft() throws Exception {
        LogStreams streams = net.network.logStreams();
        atOnce(i -> () -> streams.set(net.admin, new LogStream(LogStreams.CONFIGURATION, "http",
                "https://logs" + i + ".example/", null, null, 0, null, null)));
        assertEquals(1, auditEntries("logstream.create"), "one created it, the others replaced it");
        assertEquals(WRITERS - 1, auditEntries("logstream.update"));
    }

    @Test
    void parallelServicesAllStayWithAddressesOfTheirOwn() throws Exception {
        VipServices services = net.network.vipServices();
        atOnce(i -> () -> services.put(net.admin, new VipService("svc:s" + i, null, null, "", Map.of(),
                List.of("tcp:443"), List.of()), List.of()));
        assertEquals(WRITERS, services.current().size(), "all in force");
        assertEquals(WRITERS, services.current().stream().map(VipService::ipv4).distinct().count());
        assertEquals(Set.copyOf(services.list(net.admin)), Set.copyOf(services.current()));
    }

    @Test
    void parallelAppsAllStay() throws Exception {
        Apps apps = net.network.apps();
        atOnce(i -> () -> apps.create(net.admin, new App(0, "app" + i, null, List.of(domain(i)), List.of(),
                List.of(), null, null)));
        assertEquals(WRITERS, apps.current().apps().size(), "all in force");
        assertEquals(WRITERS, apps.list(net.admin).size());
    }

    @Test
    void parallelWebhookEndpointsAllStay() throws Exception {
        Webhooks webhooks = net.network.webhooks();
        webhooks.checkTargetsWith((url, provider) -> Optional.empty());
        atOnce(i -> () -> webhooks.create(net.admin, new Webhooks.Fields("https://hooks" + i + ".example/", null,
                List.of("nodeCreated"))));
        assertEquals(WRITERS, webhooks.list(net.admin).size());
    }

    @Test
    void ofParallelConditionalPolicyWritesOnlyOneIsAcknowledged() throws Exception {
        Policies policies = net.network.policies();
        String read = policies.etag();
        List<Policies.Current> acknowledged = new CopyOnWriteArrayList<>();
        atOnce(i -> () -> {
            try {
                acknowledged.add(policies.set(net.admin, "{\"groups\": {\"group:g" + i + "\": []}}", read));
            } catch (MeshException e) {
                assertEquals(MeshException.Reason.PRECONDITION_FAILED, e.reason());
            }
        });
        assertEquals(1, acknowledged.size(), "the others read a policy that had changed");
        assertEquals(acknowledged.getFirst().etag(), policies.etag());
    }

    private int auditEntries(String action) {
        return net.network.auditLog().recent(action, 1000).size();
    }
}
