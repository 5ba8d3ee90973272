package io.meshcontrol.core.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.event.MeshEvent;
import io.meshcontrol.core.key.MachinePrivateKey;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.model.Role;
import io.meshcontrol.core.model.User;
import io.meshcontrol.core.testing.Machine;
import io.meshcontrol.core.testing.TestNetwork;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** People who log in at an OIDC issuer: the user a login is for, users approval, and the machine it registers. */
class PersonLoginTest {

    private static final String ISSUER = "https://login.example.com";

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

    private static Users.PersonLogin login(String subject, String name, String email) {
        return new Users.PersonLogin(ISSUER, subject, name, "Freya Asgard", email);
    }

    private String pendingMachine() {
        return net.network.pendingLogins().start(Machine.named("laptop")
                .machineKey(MachinePrivateKey.generate().publicKey()).hostinfo("{}").request(), false);
    }

    @Test
    void firstLoginCreatesAMemberAndTheNextFindsTheSameUser() {
        Users.LoggedIn first = users.logIn(login("sub-1", "freya", "freya@example.com"));
        assertTrue(first.created());
        assertEquals("freya", first.user().name());
        assertEquals("freya@example.com", first.user().email());
        assertEquals(Role.MEMBER, first.user().role());
        assertTrue(first.user().approved(), "users approval is off");
        assertEquals(List.of("userCreated"), events.stream().map(MeshEvent::type).toList());

        Users.LoggedIn again = users.logIn(login("sub-1", "renamed-at-issuer", "other@example.com"));
        assertFalse(again.created());
        assertEquals(first.user().id(), again.user().id(), "the identity, not the name, finds the user");
    }

    @Test
    void aTakenNameGetsASuffixAndAnUnusableOneIsMadeValid() {
        net.user("freya", Role.ADMIN);
        assertEquals("freya-2", users.logIn(login("sub-1", "freya", "")).user().name());
        assertEquals("Freya-Asgard", users.logIn(login("sub-2", " Freya Asgard", "")).user().name());
        assertEquals("sub-3", users.logIn(login("sub-3", "", "")).user().name(), "no name, no e-mail: the subject");
    }

    @Test
    void aPreparedUserWithTheTrustedEmailIsLinkedNotDuplicated() {
        User prepared = users.create(net.admin, new Users.NewUser("freya", null, "freya@example.com", Role.ADMIN));
        Users.LoggedIn login = users.logIn(login("sub-1", "fa", "freya@example.com"));
        assertFalse(login.created());
        assertEquals(prepared.id(), login.user().id());
        assertEquals(login.user().id(), users.logIn(login("sub-1", "fa", "")).user().id(), "linked for good");
        assertEquals("freya-2", users.logIn(login("sub-2", "freya", "freya@example.com")).user().name(),
                "a user already linked to one identity is not handed to another");
    }

    @Test
    void whileUsersApprovalIsOnAFirstLoginWaitsAndItsMachineIsHeld() {
        net.network.settings().update(net.admin, new Settings.Change(null, true, null, null));
        User freya = users.logIn(login("sub-1", "freya", "")).user();
        assertFalse(freya.approved());
        assertEquals(List.of("userCreated", "userNeedsApproval"), events.stream().map(MeshEvent::type).toList());

        Node held = net.network.pendingLogins().completeByLogin(pendingMachine(), freya,
                new Registrations.KeyLife.NetworkDefault()).node();
        assertFalse(held.authorized(), "a waiting user's machine does not get in");

        User approved = users.approve(net.admin, freya.id());
        assertTrue(approved.approved());
        assertTrue(net.network.nodes().get(net.admin, held.id()).authorized(), "approving the user lets it in");
        assertEquals(List.of("userApproved", "nodeApproved"),
                events.subList(events.size() - 2, events.size()).stream().map(MeshEvent::type).toList());
        MeshException again = assertThrows(MeshException.class, () -> users.approve(net.admin, freya.id()));
        assertEquals(MeshException.Reason.INVALID, again.reason());
    }

    @Test
    void aMachineLetInBeforeIsHeldWhenAWaitingUserLogsInOnIt() {
        net.user("odin", Role.MEMBER);
        PendingLogins logins = net.network.pendingLogins();
        Registrations.Request laptop = Machine.named("laptop").machineKey(MachinePrivateKey.generate().publicKey())
                .hostinfo("{}").request();
        Node before = logins.complete(net.admin, logins.start(laptop, false), "odin").node();
        assertTrue(before.authorized());
        net.network.settings().update(net.admin, new Settings.Change(null, true, null, null));
        User freya = users.logIn(login("sub-1", "freya", "")).user();
        Node after = logins.completeByLogin(logins.start(laptop, false), freya,
                new Registrations.KeyLife.NetworkDefault()).node();
        assertEquals(before.id(), after.id());
        assertFalse(after.authorized());
    }

    @Test
    void approvingAUserLeavesItsMachinesToDeviceApprovalWhenThatIsOn() {
        net.network.settings().update(net.admin, new Settings.Change(true, true, null, null));
        User freya = users.logIn(login("sub-1", "freya", "")).user();
        Node held = net.network.pendingLogins().completeByLogin(pendingMachine(), freya,
                new Registrations.KeyLife.NetworkDefault()).node();
        users.approve(net.admin, freya.id());
        assertFalse(net.network.nodes().get(net.admin, held.id()).authorized());
    }

    @Test
    void usersMadeByAnAdministratorNeedNoApproval() {
        net.network.settings().update(net.admin, new Settings.Change(null, true, null, null));
        assertTrue(net.user("odin", Role.MEMBER).approved());
    }

    @Test
    void approvingNeedsTheUsersScope() {
        net.network.settings().update(net.admin, new Settings.Change(null, true, null, null));
        User freya = users.logIn(login("sub-1", "freya", "")).user();
        net.user("ann", Role.AUDITOR);
        MeshException refused = assertThrows(MeshException.class,
                () -> users.approve(net.callerFor("ann", List.of()), freya.id()));
        assertEquals(MeshException.Reason.FORBIDDEN, refused.reason());
        assertFalse(users.byId(freya.id()).orElseThrow().approved());
    }

    @Test
    void theKeyLifeOfALoginSetsTheNodesExpiry() {
        User freya = users.logIn(login("sub-1", "freya", "")).user();
        PendingLogins logins = net.network.pendingLogins();
        Instant now = net.clock.instant();
        Node fixed = logins.completeByLogin(pendingMachine(), freya,
                new Registrations.KeyLife.Lifetime(Duration.ofDays(180))).node();
        assertEquals(now.plus(Duration.ofDays(180)), fixed.keyExpiry());
        Node never = logins.completeByLogin(pendingMachine(), freya,
                new Registrations.KeyLife.Lifetime(Duration.ZERO)).node();
        assertEquals(null, never.keyExpiry());
        Node fromToken = logins.completeByLogin(pendingMachine(), freya,
                new Registrations.KeyLife.Until(now.plusSeconds(3600))).node();
        assertEquals(now.plusSeconds(3600), fromToken.keyExpiry());

        net.network.settings().update(net.admin, new Settings.Change(null, null, 7, null));
        Node tailnet = logins.completeByLogin(pendingMachine(), freya,
                new Registrations.KeyLife.Lifetime(Duration.ofDays(180))).node();
        assertEquals(now.plus(Duration.ofDays(7)), tailnet.keyExpiry(), "the tailnet key duration wins over the file");
    }

    @Test
    void aSessionOpensUntilItEndsOrLapsesAndOnlyItsSecretIsStored() {
        User freya = users.logIn(login("sub-1", "freya", "")).user();
        BrowserSessions sessions = net.network.browserSessions();
        BrowserSessions.Started started = sessions.start(freya);
        assertEquals(freya.id(), sessions.find(started.secret()).orElseThrow().user().id());
        assertTrue(sessions.find(started.secret() + "x").isEmpty());
        Integer stored = net.network.database().jdbi().withHandle(h -> h.createQuery(
                "SELECT COUNT(*) FROM browser_sessions WHERE secret_hash = :s").bind("s", started.secret())
                .mapTo(Integer.class).one());
        assertEquals(0, stored, "the secret itself is not in the database");

        sessions.end(started.secret());
        assertTrue(sessions.find(started.secret()).isEmpty(), "logged out");

        BrowserSessions.Started second = sessions.start(freya);
        net.clock.advance(BrowserSessions.LIFETIME);
        assertTrue(sessions.find(second.secret()).isEmpty(), "lapsed");
    }

    @Test
    void aWaitingUserGetsNoSession() {
        net.network.settings().update(net.admin, new Settings.Change(null, true, null, null));
        User freya = users.logIn(login("sub-1", "freya", "")).user();
        MeshException refused = assertThrows(MeshException.class, () -> net.network.browserSessions().start(freya));
        assertEquals(MeshException.Reason.FORBIDDEN, refused.reason());
    }
}
