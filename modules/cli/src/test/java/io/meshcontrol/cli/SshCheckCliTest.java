package io.meshcontrol.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.netmap.AccessControl;
import io.meshcontrol.core.state.SshChecks;
import io.meshcontrol.core.testing.AuthKey;
import io.meshcontrol.core.testing.Machine;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** {@code svc auth checks|approve|reject}: an administrator decides SSH sessions held by a check rule. */
class SshCheckCliTest {

    @TempDir
    Path folder;
    @RegisterExtension
    final ServerWithCli cli = ServerWithCli.in(() -> folder);
    Node laptop;
    Node target;

    @BeforeEach
    void start() {
        assertEquals(0, cli.run("users", "create", "--name", "odin").exitCode());
        var network = cli.server().network;
        network.policies().set(Caller.localAdmin(), """
                {"tagOwners": {"tag:server": ["autogroup:admin"]},
                 "ssh": [{"action": "check", "src": ["autogroup:member"], "dst": ["tag:server"],
                          "users": ["root"]}]}""", null);
        laptop = Machine.named("laptop").join(network, AuthKey.forUser("odin").create(network));
        target = Machine.named("server").join(network, AuthKey.forTags("tag:server").create(network));
    }

    private String held() {
        return assertInstanceOf(SshChecks.Answer.Hold.class, cli.server().network.sshChecks()
                .request(target.machineKey(), laptop.id(), target.id(), "root",
                        new AccessControl(cli.server().network.policies())::sshCheckPeriod)).authId();
    }

    private SshChecks.Answer verdict(String authId) throws InterruptedException {
        return cli.server().network.sshChecks().await(target.machineKey(), authId, Duration.ZERO).orElseThrow();
    }

    @Test
    void approveByAuthIdLetsTheSessionIn() throws Exception {
        String authId = held();
        CliRun listed = cli.run("auth", "checks");
        assertTrue(listed.out().contains(authId) && listed.out().contains("odin"), listed.toString());
        CliRun approved = cli.run("auth", "approve", "--auth-id", authId);
        assertEquals(0, approved.exitCode(), approved.toString());
        assertTrue(approved.out().contains("laptop") && approved.out().contains("root"), approved.out());
        assertInstanceOf(SshChecks.Answer.Accept.class, verdict(authId));
        assertEquals(1, cli.run("auth", "checks").out().lines().count(), "only the heading is left");
    }

    @Test
    void rejectByAuthIdIsFinal() throws Exception {
        String authId = held();
        assertEquals(0, cli.run("auth", "reject", "--auth-id", authId).exitCode());
        assertInstanceOf(SshChecks.Answer.Reject.class, verdict(authId));
        CliRun again = cli.run("auth", "approve", "--auth-id", authId);
        assertEquals(1, again.exitCode());
        assertTrue(again.err().contains("already decided"), again.err());
        assertEquals(1, again.err().lines().count(), "one readable line: " + again.err());
    }

    @Test
    void unknownAuthIdIsOneReadableLine() {
        CliRun unknown = cli.run("auth", "reject", "--auth-id", "nosuch");
        assertEquals(1, unknown.exitCode());
        assertTrue(unknown.err().contains("no pending SSH check"), unknown.err());
    }
}
