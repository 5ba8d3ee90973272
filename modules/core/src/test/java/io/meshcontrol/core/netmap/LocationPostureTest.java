package io.meshcontrol.core.netmap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.location.Locations;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.model.Role;
import io.meshcontrol.core.state.Network;
import io.meshcontrol.core.state.SshChecks;
import io.meshcontrol.core.state.StateChange;
import io.meshcontrol.core.state.Users;
import io.meshcontrol.core.testing.AuthKey;
import io.meshcontrol.core.testing.GeoDatabases;
import io.meshcontrol.core.testing.Machine;
import io.meshcontrol.core.testing.TestNetwork;
import io.meshcontrol.core.wire.FilterRule;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code srcPosture} with {@code ip:country}: a machine is a source only while the location database places its
 * public endpoint in a listed country, so a changed endpoint or a reloaded database changes its peers' filters.
 */
class LocationPostureTest {

    private static final String POLICY = """
            {
              "tagOwners": {"tag:server": ["autogroup:admin"]},
              "postures": {
                "posture:uk": ["ip:country IN ['GB']"],
                "posture:linux": ["node:os == 'linux'", "node:tsVersion >= '1.60'"]
              },
              "grants": [
                {"src": ["*"], "dst": ["tag:server"], "ip": ["22"], "srcPosture": ["posture:uk"]}
              ],
              "acls": [
                {"action": "accept", "src": ["autogroup:member"], "dst": ["tag:server:443"],
                 "srcPosture": ["posture:linux"]}
              ]
            }""";

    @TempDir
    Path folder;
    Network network;
    Path database;
    final Caller admin = Caller.localAdmin();

    @BeforeEach
    void setUp() throws Exception {
        network = new TestNetwork(folder).network;
        database = GeoDatabases.write(folder.resolve("geo.mmdb"), "81.2.69.0/24=GB/London", "89.160.20.0/24=SE");
        network.policies().useLocations(Locations.open(Optional.of(database)));
        network.users().create(admin, new Users.NewUser("alice", null, "alice@example.com", Role.MEMBER));
        network.policies().set(admin, POLICY, null);
    }

    private Node join(Machine machine, AuthKey key) {
        return machine.join(network, key.create(network));
    }

    private void reports(Node node, String endpoint) {
        network.nodes().updateFromClient(node.id(), null, List.of(endpoint, "192.168.1.20:41641"), null, null);
    }

    /** The sources of the server's rules for the port. */
    private List<String> sourcesTo(AccessControl control, Node server, int port) {
        Node current = network.snapshots().current().node(server.id()).orElseThrow();
        List<String> sources = new ArrayList<>();
        for (FilterRule rule : control.rules(network.snapshots().current()).packetFilter(current)) {
            if (rule.dstPorts().stream().anyMatch(p -> p.ports().first() == port)) {
                sources.addAll(rule.srcIps());
            }
        }
        return sources;
    }

    @Test
    void aMachineIsASourceOnlyWhileItsEndpointIsInAPostureCountry() {
        AccessControl control = new AccessControl(network.policies());
        Node server = join(Machine.named("server"), AuthKey.forTags("tag:server"));
        Node laptop = join(Machine.named("laptop"), AuthKey.forUser("alice"));
        reports(laptop, "89.160.20.7:41641");
        assertFalse(sourcesTo(control, server, 22).contains(laptop.ipv4()), "in Sweden: not a source");

        reports(laptop, "81.2.69.7:41641");
        assertTrue(sourcesTo(control, server, 22).contains(laptop.ipv4()), "in the UK: a source");
        assertFalse(sourcesTo(control, server, 22).contains("100.64.0.0/10"),
                "a posture narrows * to the machines that satisfy it");

        reports(laptop, "89.160.20.8:41641");
        assertFalse(sourcesTo(control, server, 22).contains(laptop.ipv4()), "moved back: no longer a source");
    }

    @Test
    void hostinfoConditionsNeedEveryConditionOfThePosture() {
        AccessControl control = new AccessControl(network.policies());
        Node server = join(Machine.named("server"), AuthKey.forTags("tag:server"));
        Node current = join(Machine.named("current").hostinfo("{\"OS\":\"linux\",\"IPNVersion\":\"1.80.3-t1\"}"),
                AuthKey.forUser("alice"));
        Node old = join(Machine.named("old").hostinfo("{\"OS\":\"linux\",\"IPNVersion\":\"1.58.2\"}"),
                AuthKey.forUser("alice"));
        Node mac = join(Machine.named("mac").hostinfo("{\"OS\":\"macOS\",\"IPNVersion\":\"1.90.0\"}"),
                AuthKey.forUser("alice"));
        List<String> sources = sourcesTo(control, server, 443);
        assertTrue(sources.contains(current.ipv4()), sources.toString());
        assertFalse(sources.contains(old.ipv4()), sources.toString());
        assertFalse(sources.contains(mac.ipv4()), sources.toString());
    }

    @Test
    void aReloadedDatabaseMovesMachinesAndTellsMapStreamsAsAPolicyChange() throws Exception {
        AccessControl control = new AccessControl(network.policies());
        Node server = join(Machine.named("server"), AuthKey.forTags("tag:server"));
        Node laptop = join(Machine.named("laptop"), AuthKey.forUser("alice"));
        reports(laptop, "89.160.20.7:41641");
        assertFalse(sourcesTo(control, server, 22).contains(laptop.ipv4()));
        List<StateChange> changes = new ArrayList<>();
        network.snapshots().subscribe(changes::add);

        Path next = GeoDatabases.write(folder.resolve("next.mmdb"), "89.160.20.0/24=GB");
        Files.move(next, database, StandardCopyOption.REPLACE_EXISTING);
        assertTrue(network.policies().reloadLocations());

        assertTrue(sourcesTo(control, server, 22).contains(laptop.ipv4()), "placed in the UK by the new database");
        assertEquals(1, changes.stream().filter(c -> c instanceof StateChange.PolicyChanged).count(), changes.toString());
    }

    @Test
    void machinesAreLookedUpOnceAPolicyHasPostures() {
        network.policies().set(admin, """
                {"tagOwners": {"tag:server": ["autogroup:admin"]},
                 "grants": [{"src": ["autogroup:member"], "dst": ["tag:server"], "ip": ["22"]}]}""", null);
        AccessControl control = new AccessControl(network.policies());
        Node server = join(Machine.named("server"), AuthKey.forTags("tag:server"));
        Node laptop = join(Machine.named("laptop"), AuthKey.forUser("alice"));
        reports(laptop, "89.160.20.7:41641");
        assertTrue(sourcesTo(control, server, 22).contains(laptop.ipv4()), "no postures: a source from anywhere");

        network.policies().set(admin, POLICY, null);
        assertFalse(sourcesTo(control, server, 22).contains(laptop.ipv4()), "placed in Sweden once postures apply");
        reports(laptop, "81.2.69.7:41641");
        assertTrue(sourcesTo(control, server, 22).contains(laptop.ipv4()));
    }

    @Test
    void anSshCheckRuleWithALocationPostureIsJudgedByTheRulesTheDestinationWasSent() {
        network.policies().set(admin, """
                {"tagOwners": {"tag:server": ["autogroup:admin"]},
                 "postures": {"posture:uk": ["ip:country IN ['GB']"]},
                 "ssh": [{"action": "check", "src": ["autogroup:member"], "dst": ["tag:server"], "users": ["root"],
                          "srcPosture": ["posture:uk"], "checkPeriod": "2h"}]}""", null);
        AccessControl control = new AccessControl(network.policies());
        Node server = join(Machine.named("server"), AuthKey.forTags("tag:server"));
        Node laptop = join(Machine.named("laptop"), AuthKey.forUser("alice"));
        reports(laptop, "89.160.20.7:41641");
        assertInstanceOf(SshChecks.Answer.Reject.class, network.sshChecks().request(server.machineKey(), laptop.id(),
                server.id(), "root", control::sshCheckPeriod), "in Sweden: no check rule covers the session");

        reports(laptop, "81.2.69.7:41641");
        assertEquals(Optional.of(Duration.ofHours(2)),
                control.sshCheckPeriod(network.snapshots().current(), laptop.id(), server.id(), "root"));
        assertInstanceOf(SshChecks.Answer.Hold.class, network.sshChecks().request(server.machineKey(), laptop.id(),
                server.id(), "root", control::sshCheckPeriod), "in the UK: held for the person's check");
    }
}
