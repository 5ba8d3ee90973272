package io.meshcontrol.core.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.key.MachinePrivateKey;
import io.meshcontrol.core.model.AuditEntry;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.model.Role;
import io.meshcontrol.core.model.User;
import io.meshcontrol.core.netmap.AccessControl;
import io.meshcontrol.core.testing.AuthKey;
import io.meshcontrol.core.testing.Machine;
import io.meshcontrol.core.testing.TestNetwork;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SshChecksTest {

    private static final String POLICY = """
            {"tagOwners": {"tag:server": ["autogroup:admin"], "tag:ci": ["autogroup:admin"]},
             "ssh": [{"action": "check", "src": ["autogroup:member", "tag:ci"], "dst": ["tag:server"],
                      "users": ["root", "autogroup:nonroot"], "checkPeriod": "1h"}]}""";

    @TempDir
    Path folder;
    TestNetwork net;
    SshChecks checks;
    User odin;
    User thor;
    Node laptop;
    Node server;

    @BeforeEach
    void setUp() {
        net = new TestNetwork(folder);
        odin = net.user("odin", Role.MEMBER);
        thor = net.user("thor", Role.MEMBER);
        net.policy(POLICY);
        laptop = net.join(Machine.named("laptop"), AuthKey.forUser("odin").create(net.network));
        server = net.join(Machine.named("server"), AuthKey.forTags("tag:server").create(net.network));
        checks = net.network.sshChecks();
    }

    /** The rules as the server's access control compiles them for the destination's maps. */
    private SshChecks.CheckRules rules() {
        return new AccessControl(net.network.policies())::sshCheckPeriod;
    }

    private String held(Node src, String localUser) {
        SshChecks.Answer answer = checks.request(server.machineKey(), src.id(), server.id(), localUser, rules());
        return assertInstanceOf(SshChecks.Answer.Hold.class, answer).authId();
    }

    private CompletableFuture<Optional<SshChecks.Answer>> waitFor(String authId) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return checks.await(server.machineKey(), authId, Duration.ofSeconds(60));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    private List<String> auditActions() {
        return net.network.auditLog().recent(null, 50).stream().map(AuditEntry::action)
                .filter(action -> action.startsWith("ssh.check.")).toList().reversed();
    }

    @Test
    void administratorsApprovalLetsTheHeldSessionIn() throws Exception {
        String authId = held(laptop, "root");
        assertEquals(List.of(authId), checks.pending(net.admin).stream().map(SshChecks.Check::authId).toList());
        CompletableFuture<Optional<SshChecks.Answer>> waiting = waitFor(authId);
        SshChecks.Check approved = checks.approve(net.admin, authId);
        assertEquals("odin", approved.srcOwner());
        assertInstanceOf(SshChecks.Answer.Accept.class, waiting.get().orElseThrow());
        assertTrue(checks.pending(net.admin).isEmpty());
        assertEquals(List.of("ssh.check.request", "ssh.check.approve"), auditActions());
    }

    @Test
    void ownersFreshLoginLetsTheSessionIn() throws Exception {
        String authId = held(laptop, "root");
        assertTrue(checks.completeByLogin(authId, odin));
        assertInstanceOf(SshChecks.Answer.Accept.class,
                checks.await(server.machineKey(), authId, Duration.ZERO).orElseThrow());
    }

    @Test
    void loginByAnotherPersonRefusesTheSessionForGood() throws Exception {
        String authId = held(laptop, "root");
        assertFalse(checks.completeByLogin(authId, thor));
        SshChecks.Answer answer = checks.await(server.machineKey(), authId, Duration.ZERO).orElseThrow();
        assertTrue(assertInstanceOf(SshChecks.Answer.Reject.class, answer).message().contains("belongs to odin"));
        MeshException again = assertThrows(MeshException.class, () -> checks.approve(net.admin, authId));
        assertEquals(MeshException.Reason.CONFLICT, again.reason(), "a refusal is final");
        assertThrows(MeshException.class, () -> checks.completeByLogin(authId, odin));
        assertEquals(List.of("ssh.check.request", "ssh.check.reject"), auditActions());
    }

    @Test
    void administratorsRejectionRefusesTheSession() throws Exception {
        String authId = held(laptop, "root");
        checks.reject(net.admin, authId);
        assertInstanceOf(SshChecks.Answer.Reject.class,
                checks.await(server.machineKey(), authId, Duration.ZERO).orElseThrow());
    }

    @Test
    void taggedSourceCannotBeChecked() {
        Node ci = net.join(Machine.named("ci"), AuthKey.forTags("tag:ci").create(net.network));
        SshChecks.Answer answer = checks.request(server.machineKey(), ci.id(), server.id(), "root", rules());
        assertEquals(new SshChecks.Answer.Reject(SshChecks.TAGGED_SOURCE), answer);
        assertEquals(List.of("ssh.check.reject"), auditActions());
    }

    @Test
    void successfulCheckHoldsForTheCheckPeriodOfThatSourceDestinationAndUser() {
        checks.approve(net.admin, held(laptop, "root"));
        net.clock.advance(Duration.ofMinutes(59));
        assertInstanceOf(SshChecks.Answer.Accept.class,
                checks.request(server.machineKey(), laptop.id(), server.id(), "root", rules()));
        held(laptop, "ubuntu"); // another local user asks again
        net.clock.advance(Duration.ofMinutes(1));
        held(laptop, "root");
    }

    @Test
    void checkPeriodDefaultsToTheVendorsTwelveHours() {
        net.policy(POLICY.replace(", \"checkPeriod\": \"1h\"", ""));
        checks.approve(net.admin, held(laptop, "root"));
        net.clock.advance(Duration.ofHours(12).minusSeconds(1));
        assertInstanceOf(SshChecks.Answer.Accept.class,
                checks.request(server.machineKey(), laptop.id(), server.id(), "root", rules()));
        net.clock.advance(Duration.ofSeconds(1));
        held(laptop, "root");
    }

    @Test
    void undecidedCheckLapsesAsARejectionAndIsAudited() throws Exception {
        String authId = held(laptop, "root");
        net.clock.advance(SshChecks.LIFETIME);
        SshChecks.Answer answer = checks.await(server.machineKey(), authId, Duration.ofSeconds(1)).orElseThrow();
        assertInstanceOf(SshChecks.Answer.Reject.class, answer);
        assertEquals(List.of("ssh.check.request", "ssh.check.expire"), auditActions());
        assertThrows(MeshException.class, () -> checks.approve(net.admin, authId));
        assertTrue(checks.undecided(authId).isEmpty());
    }

    @Test
    void onlyTheDestinationMachineMayAsk() {
        MeshException refused = assertThrows(MeshException.class, () -> checks.request(
                MachinePrivateKey.generate().publicKey(), laptop.id(), server.id(), "root", rules()));
        assertEquals(MeshException.Reason.FORBIDDEN, refused.reason());
        String authId = held(laptop, "root");
        assertThrows(MeshException.class, () -> checks.await(laptop.machineKey(), authId, Duration.ZERO));
    }

    @Test
    void sessionTheRulesDoNotCheckIsRefused() {
        Node other = net.join(Machine.named("other"), AuthKey.forUser("thor").create(net.network));
        SshChecks.Answer answer = checks.request(other.machineKey(), laptop.id(), other.id(), "root", rules());
        assertInstanceOf(SshChecks.Answer.Reject.class, answer);
    }

    @Test
    void decidingNeedsTheDevicesScope() {
        String authId = held(laptop, "root");
        MeshException refused = assertThrows(MeshException.class,
                () -> checks.approve(io.meshcontrol.core.auth.Caller.forSession(thor), authId));
        assertEquals(MeshException.Reason.FORBIDDEN, refused.reason());
    }
}
