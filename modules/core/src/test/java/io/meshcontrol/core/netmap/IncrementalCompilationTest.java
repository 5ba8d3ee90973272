package io.meshcontrol.core.netmap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.model.Role;
import io.meshcontrol.core.state.Network;
import io.meshcontrol.core.state.NetworkSnapshot;
import io.meshcontrol.core.state.Users;
import io.meshcontrol.core.testing.AuthKey;
import io.meshcontrol.core.testing.Machine;
import io.meshcontrol.core.testing.TestNetwork;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A join extends the compilation of the snapshot before it instead of compiling anew, and an extended compilation
 * must answer every question exactly as a compilation from scratch does: whom each machine sees, its packet filter,
 * SSH policy, capabilities and the routes it is offered. Checked over a policy that uses every kind of alias
 * (groups, users, tags, autogroups, {@code autogroup:self}, host prefixes, subnet routers, exit nodes).
 */
class IncrementalCompilationTest {

    private static final String POLICY = """
            {
              "groups": {"group:dev": ["alice@example.com"]},
              "tagOwners": {"tag:web": ["autogroup:admin"], "tag:db": ["autogroup:admin"], "tag:router": ["autogroup:admin"]},
              "hosts": {"lan": "10.33.0.0/16"},
              "autoApprovers": {"routes": {"10.33.0.0/16": ["tag:router"]}, "exitNode": ["tag:router"]},
              "acls": [
                {"action": "accept", "src": ["group:dev"], "dst": ["tag:web:443", "lan:22"]},
                {"action": "accept", "src": ["autogroup:member"], "dst": ["autogroup:self:*"]},
                {"action": "accept", "src": ["tag:web"], "dst": ["tag:db:5432"]},
                {"action": "accept", "src": ["bob@example.com"], "dst": ["autogroup:internet:*"]},
                {"action": "accept", "src": ["lan"], "dst": ["tag:db:9000"]}
              ],
              "ssh": [{"action": "accept", "src": ["autogroup:member"], "dst": ["autogroup:self"],
                       "users": ["autogroup:nonroot"]}],
              "nodeAttrs": [{"target": ["tag:web"], "attr": ["funnel"]}]
            }""";

    @TempDir
    Path folder;
    Network network;
    final Caller admin = Caller.localAdmin();

    @BeforeEach
    void setUp() {
        network = new TestNetwork(folder).network;
        network.users().create(admin, new Users.NewUser("alice", null, "alice@example.com", Role.MEMBER));
        network.users().create(admin, new Users.NewUser("bob", null, "bob@example.com", Role.MEMBER));
        network.policies().set(admin, POLICY, null);
    }

    private Node join(Machine machine, AuthKey key) {
        return machine.hostinfo("{}").join(network, key.create(network));
    }

    @Test
    void everyJoinExtendsTheLastCompilationAndAnswersAsAFreshCompilationDoes() {
        AccessControl control = new AccessControl(network.policies(), "https://mesh.test");
        join(Machine.named("alice-laptop"), AuthKey.forUser("alice"));
        control.rules(network.snapshots().current());
        int compiledBefore = control.compilations();
        List<Runnable> joins = List.of(
                () -> join(Machine.named("alice-phone"), AuthKey.forUser("alice")),
                () -> join(Machine.named("bob-laptop"), AuthKey.forUser("bob")),
                () -> join(Machine.named("web"), AuthKey.forTags("tag:web")),
                () -> join(Machine.named("db"), AuthKey.forTags("tag:db")),
                () -> join(Machine.named("router").advertising("10.33.0.0/16", "0.0.0.0/0", "::/0"),
                        AuthKey.forTags("tag:router")),
                () -> join(Machine.named("web-2"), AuthKey.forTags("tag:web")),
                () -> join(Machine.named("bob-phone"), AuthKey.forUser("bob")));
        for (Runnable joinOne : joins) {
            joinOne.run();
            NetworkSnapshot snapshot = network.snapshots().current();
            assertSameAnswers(AccessRules.compile(network.policies().policy(), snapshot, "https://mesh.test"),
                    control.rules(snapshot), snapshot);
        }
        assertEquals(compiledBefore, control.compilations(), "joins extend; none compiled from scratch");
    }

    @Test
    void aChangeTheJoinDoesNotExplainCompilesAnewAndAnUnseenChangeKeepsTheRules() {
        AccessControl control = new AccessControl(network.policies());
        Node laptop = join(Machine.named("alice-laptop"), AuthKey.forUser("alice"));
        Node web = join(Machine.named("web"), AuthKey.forTags("tag:web"));
        join(Machine.named("bob-laptop"), AuthKey.forUser("bob"));
        AccessRules before = control.rules(network.snapshots().current());
        int compiled = control.compilations();

        network.nodes().updateFromClient(laptop.id(), null, List.of("198.51.100.7:41641"), null, null);
        assertSame(before, control.rules(network.snapshots().current()), "endpoints: the policy sees nothing new");

        network.nodes().setTags(admin, web.id(), List.of("tag:db"));
        NetworkSnapshot retagged = network.snapshots().current();
        assertSameAnswers(AccessRules.compile(network.policies().policy(), retagged), control.rules(retagged), retagged);
        assertEquals(compiled + 1, control.compilations(), "a retag is not a join");

        network.nodes().delete(admin, laptop.id());
        NetworkSnapshot left = network.snapshots().current();
        assertSameAnswers(AccessRules.compile(network.policies().policy(), left), control.rules(left), left);
        assertEquals(compiled + 2, control.compilations(), "nor is a machine leaving");
    }

    private static void assertSameAnswers(AccessRules fresh, AccessRules incremental, NetworkSnapshot snapshot) {
        List<Node> nodes = List.copyOf(snapshot.nodes().values());
        assertTrue(nodes.size() > 1);
        for (Node a : nodes) {
            String who = a.givenName();
            assertEquals(fresh.packetFilter(a), incremental.packetFilter(a), "packet filter of " + who);
            assertEquals(fresh.sshPolicy(a), incremental.sshPolicy(a), "SSH policy of " + who);
            assertEquals(fresh.capMap(a), incremental.capMap(a), "capabilities of " + who);
            assertEquals(fresh.peerIds(a), incremental.peerIds(a), "peers of " + who);
            for (Node b : nodes) {
                assertEquals(fresh.sees(a, b), incremental.sees(a, b), who + " sees " + b.givenName());
                assertEquals(fresh.peerRoutes(a, b), incremental.peerRoutes(a, b),
                        b.givenName() + "'s routes offered to " + who);
            }
        }
    }
}
