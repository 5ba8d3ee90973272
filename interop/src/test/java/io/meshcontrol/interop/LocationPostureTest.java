package io.meshcontrol.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.meshcontrol.api.MeshClient;
import io.meshcontrol.api.NodeView;
import io.meshcontrol.api.PreAuthKeyRequest;
import io.meshcontrol.api.UserRequest;
import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.testing.Await;
import io.meshcontrol.core.testing.GeoDatabases;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code policy.geoip_database} with real clients: a laptop's tailscaled runs in a network namespace of its own whose
 * only address is public, so the endpoints it reports place it with the test's location database; when its address
 * changes it reports the new one, and the server's machine (on this host) gets the filter of the new place.
 */
class LocationPostureTest {

    private static final Duration SOON = Duration.ofSeconds(60);
    private static final String UK = "81.2.69.10";
    private static final String SWEDEN = "89.160.20.10";
    private static final String POLICY = """
            {"tagOwners": {"tag:server": ["alice@example.com"]},
             "postures": {"posture:uk": ["ip:country == 'GB'"]},
             "acls": [{"action": "accept", "src": ["autogroup:member"], "dst": ["tag:server:22"],
                       "srcPosture": ["posture:uk"]}]}
            """;

    @RegisterExtension
    final TailscaleNodes nodes = new TailscaleNodes();

    @TempDir
    Path folder;

    private TestNetwork network;
    private MeshClient admin;
    private Derper derper;
    private final List<List<String>> undo = new ArrayList<>();
    private final int id = ThreadLocalRandom.current().nextInt(100, 250);
    private final String namespace = "svcgeo" + id;
    private final String hostSide = "sg" + id + "h";
    private final String hostAddress = "10.201." + id + ".1";

    @AfterEach
    void stop() throws Exception {
        try {
            if (network != null) {
                network.close();
            }
            if (derper != null) {
                derper.close();
            }
        } finally {
            // The namespace outlives its name until the laptop's daemon (stopped after this) exits.
            for (int i = undo.size() - 1; i >= 0; i--) {
                run(undo.get(i), false);
            }
        }
    }

    @ParameterizedTest(name = "tailscale {0}")
    @MethodSource("io.meshcontrol.interop.ClientVersions#all")
    void aClientsPublicAddressPlacesItAndMovingItChangesItsPeersFilter(ClientVersion version) throws Exception {
        assumeTrue(ThisHost.isRoot(), "network namespaces need root");
        Path database = GeoDatabases.write(folder.resolve("GeoLite2-City.mmdb"), "81.2.69.0/24=GB/London",
                "89.160.20.0/24=SE/Linkoping");
        namespaceWithAddress(UK);
        // The relay on the namespace's link too: a client goes Running only with a live relay connection.
        derper = Derper.startOn(hostAddress, ClientBinaries.of(ClientVersions.newest()), folder.resolve("derper"));
        Path map = Files.writeString(folder.resolve("derper-map.json"), derper.derpMapJson());
        network = TestNetwork.withoutRelay(folder, nodes, server -> server
                .set("listen_addr", hostAddress + ":0")
                .set("derp.paths", map.toString())
                .set("policy.geoip_database", database.toString()));
        // The local credential answers only on loopback, and the server listens on the namespace's link: an API key.
        admin = network.server().client(network.server().network.apiKeys().create(Caller.localAdmin(), null,
                List.of(), "location test", null).secret());
        admin.createUser(new UserRequest("alice", null, "alice@example.com", "admin"));
        admin.setPolicy(POLICY);
        String key = admin.createPreAuthKey(new PreAuthKeyRequest("alice", null, true, false, false, "", null))
                .secret();
        String serverKey = admin.createPreAuthKey(new PreAuthKeyRequest("alice", List.of("tag:server"), true, false,
                false, "", null)).secret();
        String noProxy = "127.0.0.1,localhost,::1," + hostAddress;

        TailscaleNode host = network.join(network.builder(version, "host").env("NO_PROXY", noProxy)
                .env("no_proxy", noProxy).env("TS_DEBUG_USE_DERP_HTTP", "1").start(), "host", serverKey);
        TailscaleNode laptop = network.join(network.builder(version, "laptop").env("NO_PROXY", noProxy)
                .env("no_proxy", noProxy).env("TS_DEBUG_USE_DERP_HTTP", "1").launchedBy("/usr/sbin/ip", "netns", "exec", namespace).start(),
                "laptop", key);
        String laptopIp = view("laptop").ipv4();

        await("the server places the laptop in London", () -> location("laptop").map(l -> l.city())
                .orElse("").equals("London"));
        await("the host's map lets the laptop in", () -> netmap(host).contains(laptopIp));

        move(UK, SWEDEN);
        await("the server places the laptop in Sweden", () -> location("laptop").map(l -> l.country())
                .orElse("").equals("SE"));
        await("the host's map no longer lets the laptop in", () -> !netmap(host).contains(laptopIp));
        assertEquals(SWEDEN, location("laptop").orElseThrow().address());
        assertTrue(laptop.status().backendState() == BackendState.Running, "the laptop stays connected");
    }

    private java.util.Optional<NodeView.LocationView> location(String name) {
        return java.util.Optional.ofNullable(view(name).location());
    }

    private NodeView view(String name) {
        return admin.nodes().stream().filter(n -> n.name().equals(name)).findFirst().orElseThrow();
    }

    private static String netmap(TailscaleNode node) {
        return node.cli("debug", "netmap").requireOk().stdout();
    }

    /** A namespace joined to this host by a veth pair: the host side {@code hostAddress}, the other {@code address}. */
    private void namespaceWithAddress(String address) throws IOException, InterruptedException {
        String inside = "sg" + id + "n";
        ip(List.of("netns", "add", namespace), List.of("netns", "delete", namespace));
        ip(List.of("link", "add", hostSide, "type", "veth", "peer", "name", inside),
                List.of("link", "delete", hostSide));
        ip(List.of("link", "set", inside, "netns", namespace), null);
        ip(List.of("addr", "add", hostAddress + "/32", "dev", hostSide), null);
        ip(List.of("link", "set", hostSide, "up"), null);
        ip(List.of("-n", namespace, "link", "set", "lo", "up"), null);
        ip(List.of("-n", namespace, "link", "set", inside, "up"), null);
        ip(List.of("-n", namespace, "addr", "add", address + "/32", "dev", inside), null);
        ip(List.of("-n", namespace, "route", "add", hostAddress + "/32", "dev", inside), null);
        ip(List.of("route", "add", address + "/32", "dev", hostSide), List.of("route", "delete", address + "/32"));
    }

    /** The namespace's address changes (the machine roams): the new one added, then the old one taken away. */
    private void move(String from, String to) throws IOException, InterruptedException {
        String inside = "sg" + id + "n";
        ip(List.of("-n", namespace, "addr", "add", to + "/32", "dev", inside), null);
        ip(List.of("-n", namespace, "route", "replace", hostAddress + "/32", "dev", inside, "src", to), null);
        ip(List.of("route", "add", to + "/32", "dev", hostSide), List.of("route", "delete", to + "/32"));
        ip(List.of("-n", namespace, "addr", "del", from + "/32", "dev", inside), null);
        ip(List.of("route", "delete", from + "/32"), null);
    }

    private void ip(List<String> args, List<String> undoArgs) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("/usr/sbin/ip"));
        command.addAll(args);
        run(command, true);
        if (undoArgs != null) {
            List<String> reverse = new ArrayList<>(List.of("/usr/sbin/ip"));
            reverse.addAll(undoArgs);
            undo.add(reverse);
        }
    }

    private static void run(List<String> command, boolean required) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (process.waitFor() != 0 && required) {
            throw new AssertionError(String.join(" ", command) + ": " + output);
        }
    }

    /** Waits for {@code condition}, checked every 300 ms: most checks run a client's CLI. */
    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        Await.until(what, SOON, Duration.ofMillis(300), condition, () -> "");
    }
}
