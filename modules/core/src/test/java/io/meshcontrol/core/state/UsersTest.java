package io.meshcontrol.core.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.event.MeshEvent;
import io.meshcontrol.core.model.Role;
import io.meshcontrol.core.model.User;
import io.meshcontrol.core.testing.TestNetwork;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class UsersTest {

    @TempDir
    Path folder;
    TestNetwork net;
    Users users;
    final List<MeshEvent> events = new ArrayList<>();

    @BeforeEach
    void setUp() {
        net = new TestNetwork(folder);
        users = net.network.users();
        net.network.events().subscribe(events::add);
    }

    @Test
    void duplicateNameIsAConflict() {
        net.user("odin", Role.MEMBER);
        MeshException refused = assertThrows(MeshException.class, () -> net.user("odin", Role.ADMIN));
        assertEquals(MeshException.Reason.CONFLICT, refused.reason());
    }

    @Test
    void renameToATakenNameIsAConflictAndChangesNothing() {
        User odin = net.user("odin", Role.MEMBER);
        net.user("thor", Role.MEMBER);
        assertThrows(MeshException.class, () -> users.update(net.admin, odin.id(), new Users.UserChange("thor", null, null, null)));
        assertEquals("odin", users.byId(odin.id()).orElseThrow().name());
    }

    @Test
    void roleChangeEmitsAnEventWithOldAndNewRole() {
        User odin = net.user("odin", Role.MEMBER);
        users.update(net.admin, odin.id(), new Users.UserChange(null, null, null, Role.AUDITOR));
        MeshEvent.UserRoleUpdated event = (MeshEvent.UserRoleUpdated) events.getLast();
        assertEquals(Role.MEMBER, event.oldRole());
        assertEquals(Role.AUDITOR, event.newRole());
        assertEquals("local-admin", event.actor());
    }

    @Test
    void idsAreNeverReused() {
        User first = net.user("a", Role.MEMBER);
        users.delete(net.admin, first.id());
        User second = net.user("b", Role.MEMBER);
        assertTrue(second.id() > first.id());
    }

    @Test
    void itAdminCannotPromoteAnyoneToAdmin() {
        net.user("ivan", Role.IT_ADMIN);
        User mia = net.user("mia", Role.MEMBER);
        Caller ivan = net.callerFor("ivan", List.of());
        MeshException refused = assertThrows(MeshException.class,
                () -> users.update(ivan, mia.id(), new Users.UserChange(null, null, null, Role.ADMIN)));
        assertEquals(MeshException.Reason.FORBIDDEN, refused.reason());
        assertEquals(Role.MEMBER, users.byId(mia.id()).orElseThrow().role());
    }

    @Test
    void deletingAUserRevokesTheirKeys() {
        net.user("odin", Role.ADMIN);
        ApiKeys.Issued issued = net.network.apiKeys().create(net.admin, "odin", List.of(), "", null);
        users.delete(net.admin, issued.owner().id());
        assertTrue(net.network.apiKeys().authenticate(issued.secret()).isEmpty());
    }

    @Test
    void invalidNamesAreRefusedWithTheRule() {
        MeshException refused = assertThrows(MeshException.class, () -> net.user("-bad name", Role.MEMBER));
        assertEquals(MeshException.Reason.INVALID, refused.reason());
        assertTrue(refused.getMessage().contains("starting with a letter or digit"));
    }
}
