package io.meshcontrol.core.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.model.Role;
import io.meshcontrol.core.model.User;
import io.meshcontrol.core.testing.TestNetwork;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every change to a user is bounded by the caller's rank: a credential may touch only users whose role holds no more
 * than the credential itself, whichever field it changes; and nobody takes another user's login name.
 */
class UserRankTest {

    @TempDir
    Path folder;
    TestNetwork net;
    Users users;
    User owner;
    User admin;
    User member;
    Caller itAdmin;

    @BeforeEach
    void setUp() {
        net = new TestNetwork(folder);
        users = net.network.users();
        owner = users.create(net.admin, new Users.NewUser("olga", "Olga", "olga@example.com", Role.OWNER));
        admin = users.create(net.admin, new Users.NewUser("adam", "Adam", "adam@example.com", Role.ADMIN));
        member = users.create(net.admin, new Users.NewUser("mia", "Mia", "mia@example.com", Role.MEMBER));
        net.user("ivan", Role.IT_ADMIN);
        itAdmin = net.callerFor("ivan", List.of());
    }

    /** One change per field a user has, and the delete. */
    static Stream<Arguments> changes() {
        return Stream.of(
                Arguments.of("name", (BiConsumer<UserRankTest, User>) (t, u) ->
                        t.users.update(t.itAdmin, u.id(), new Users.UserChange("renamed", null, null, null))),
                Arguments.of("email", (BiConsumer<UserRankTest, User>) (t, u) ->
                        t.users.update(t.itAdmin, u.id(), new Users.UserChange(null, null, "ivan@example.com", null))),
                Arguments.of("display name", (BiConsumer<UserRankTest, User>) (t, u) ->
                        t.users.update(t.itAdmin, u.id(), new Users.UserChange(null, "Ivan", null, null))),
                Arguments.of("role", (BiConsumer<UserRankTest, User>) (t, u) ->
                        t.users.update(t.itAdmin, u.id(), new Users.UserChange(null, null, null, Role.AUDITOR))),
                Arguments.of("delete", (BiConsumer<UserRankTest, User>) (t, u) -> t.users.delete(t.itAdmin, u.id())));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("changes")
    void itAdminCannotChangeTheOwnerOrAnAdmin(String field, BiConsumer<UserRankTest, User> change) {
        for (User target : List.of(owner, admin)) {
            MeshException refused = assertThrows(MeshException.class, () -> change.accept(this, target),
                    field + " of " + target.name());
            assertEquals(MeshException.Reason.FORBIDDEN, refused.reason(), refused.getMessage());
            assertTrue(refused.getMessage().contains("role " + target.role().wireName()), refused.getMessage());
            assertEquals(target, users.byId(target.id()).orElseThrow(), "nothing changed");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("changes")
    void itAdminMayChangeAMember(String field, BiConsumer<UserRankTest, User> change) {
        change.accept(this, member);
        assertNotEquals(Optional.of(member), users.byId(member.id()), field + " changed");
    }

    @Test
    void nobodyTakesTheOwnersLoginName() {
        MeshException byName = assertThrows(MeshException.class,
                () -> users.update(itAdmin, member.id(), new Users.UserChange("olga@example.com", null, null, null)));
        assertEquals(MeshException.Reason.CONFLICT, byName.reason());
        MeshException byEmail = assertThrows(MeshException.class,
                () -> users.update(itAdmin, member.id(), new Users.UserChange(null, null, "OLGA@example.com", null)));
        assertEquals(MeshException.Reason.CONFLICT, byEmail.reason());
        MeshException byCase = assertThrows(MeshException.class,
                () -> users.update(itAdmin, member.id(), new Users.UserChange("Olga", null, null, null)));
        assertEquals(MeshException.Reason.CONFLICT, byCase.reason());
        MeshException created = assertThrows(MeshException.class,
                () -> users.create(itAdmin, new Users.NewUser("olga@example.com", null, null, Role.MEMBER)));
        assertEquals(MeshException.Reason.CONFLICT, created.reason());
        assertEquals(member, users.byId(member.id()).orElseThrow());
    }

    @Test
    void aUserKeepsTheirOwnNameAndEmailWhenChangingOtherFields() {
        User changed = users.update(itAdmin, member.id(), new Users.UserChange("mia", "Mia M.", "mia@example.com", null));
        assertEquals("Mia M.", changed.displayName());
    }

    /** Ownership is handed over by an owner; an admin's credential, all-access as it is, neither grants nor takes it. */
    @Test
    void anAdminCannotMakeAUserOwnerNorDemoteOrDeleteTheOwner() {
        Caller adminKey = net.callerFor("adam", List.of());
        List<Runnable> attempts = List.of(
                () -> users.update(adminKey, member.id(), new Users.UserChange(null, null, null, Role.OWNER)),
                () -> users.create(adminKey, new Users.NewUser("otto", null, null, Role.OWNER)),
                () -> users.update(adminKey, owner.id(), new Users.UserChange(null, null, null, Role.MEMBER)),
                () -> users.delete(adminKey, owner.id()));
        for (Runnable attempt : attempts) {
            MeshException refused = assertThrows(MeshException.class, attempt::run);
            assertEquals(MeshException.Reason.FORBIDDEN, refused.reason(), refused.getMessage());
            assertTrue(refused.getMessage().contains("only an owner may"), refused.getMessage());
        }
        assertEquals(member, users.byId(member.id()).orElseThrow());
        assertEquals(owner, users.byId(owner.id()).orElseThrow());
        assertTrue(users.byName("otto").isEmpty());
        User renamed = users.update(adminKey, owner.id(), new Users.UserChange(null, "Olga O.", null, null));
        assertEquals("Olga O.", renamed.displayName(), "other changes to the owner follow the rank rule");
    }

    @Test
    void anOwnerHandsOverOwnership() {
        Caller ownerKey = net.callerFor("olga", List.of());
        assertEquals(Role.OWNER, users.update(ownerKey, admin.id(), new Users.UserChange(null, null, null, Role.OWNER))
                .role());
        assertEquals(Role.ADMIN, users.update(ownerKey, owner.id(), new Users.UserChange(null, null, null, Role.ADMIN))
                .role());
        Caller ownerSession = Caller.forSession(users.byId(admin.id()).orElseThrow());
        assertEquals(Role.OWNER, users.update(ownerSession, member.id(),
                new Users.UserChange(null, null, null, Role.OWNER)).role());
    }
}
