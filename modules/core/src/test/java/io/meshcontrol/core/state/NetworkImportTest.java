package io.meshcontrol.core.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.importing.headscale.HeadscaleImport;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.model.Role;
import io.meshcontrol.core.model.User;
import io.meshcontrol.core.testing.HeadscaleDatabaseFile;
import io.meshcontrol.core.testing.Machine;
import io.meshcontrol.core.testing.TestNetwork;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NetworkImportTest {

    @TempDir
    Path folder;
    TestNetwork net;
    String headscaleKey;
    HeadscaleImport.Plan plan;

    @BeforeEach
    void setUp() throws Exception {
        net = new TestNetwork(folder.resolve("svc"));
        Path database = folder.resolve("headscale.sqlite");
        try (HeadscaleDatabaseFile hs = HeadscaleDatabaseFile.create(database)) {
            hs.user(5, "alice", "alice@example.com", null);
            headscaleKey = hs.preAuthKey(7, "AbCd-fGhIjKl", "Zz_-" + "q".repeat(60), 5L, "[]", true, false,
                    "2099-01-01 00:00:00+00:00");
            hs.node(9, 'a', "laptop", "100.64.0.9", "fd7a:115c:a1e0::9", 5L, "[]", 7L, "{}", "[]", null);
            hs.policy("{\"acls\": [{\"action\": \"accept\", \"src\": [\"alice@\"], \"dst\": [\"*:*\"]}]}");
        }
        plan = HeadscaleImport.plan(database.toString(), null, null);
    }

    @Test
    void anImportKeepsIdsAndEveryItemIsAudited() {
        net.network.networkImport().apply(net.admin, plan.contents());
        User alice = net.network.users().requireByName("alice");
        assertEquals(5, alice.id());
        Node laptop = net.network.snapshots().current().nodes().get(9L);
        assertEquals("100.64.0.9", laptop.ipv4());
        assertTrue(net.network.policies().policy().text().contains("alice@"));
        assertEquals(1, net.network.auditLog().recent("user.import", 10).size());
        assertEquals(1, net.network.auditLog().recent("node.import", 10).size());
        assertEquals(1, net.network.auditLog().recent("preauthkey.import", 10).size());
        assertEquals(1, net.network.auditLog().recent("policy.update", 10).size());
        // ids go on after the imported ones: never reused
        assertEquals(6, net.user("bob", Role.MEMBER).id());
    }

    @Test
    void headscalesPreAuthKeyStillRegistersNodesForItsUser() {
        net.network.networkImport().apply(net.admin, plan.contents());
        Registrations.Registered joined = net.network.registrations().withAuthKey(Machine.named("desk").request(),
                headscaleKey);
        assertEquals("alice", joined.user().name());
        assertEquals(10, joined.node().id(), "the next id after headscale's");
        MeshException wrong = assertThrows(MeshException.class, () -> net.network.registrations().withAuthKey(
                Machine.named("other").request(), headscaleKey.substring(0, headscaleKey.length() - 1) + "x"));
        assertTrue(wrong.getMessage().contains("not a key of this network"), wrong.getMessage());
    }

    @Test
    void aNetworkThatIsNotEmptyIsRefusedAndKeepsWhatItHad() {
        net.user("odin", Role.ADMIN);
        assertTrue(net.network.networkImport().notEmptyReason().startsWith("the network is not empty (1 user(s)"));
        MeshException refused = assertThrows(MeshException.class,
                () -> net.network.networkImport().apply(net.admin, plan.contents()));
        assertEquals(MeshException.Reason.CONFLICT, refused.reason());
        assertTrue(net.network.users().byName("alice").isEmpty());
        assertEquals(List.of(), net.network.auditLog().recent("user.import", 10));
    }

    @Test
    void onlyTheLocalAdministratorMayImport() {
        Caller member = net.callerFor(net.user("odin", Role.ADMIN).name(), List.of("users"));
        assertThrows(MeshException.class, () -> net.network.networkImport().apply(member, plan.contents()));
        assertNull(net.network.users().byName("alice").orElse(null));
    }
}
