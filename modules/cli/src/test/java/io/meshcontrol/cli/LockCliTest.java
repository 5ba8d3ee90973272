package io.meshcontrol.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.lock.LockCrypto;
import io.meshcontrol.core.testing.TestSigner;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.state.TailnetLock;
import io.meshcontrol.core.testing.Machine;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** {@code svc lock status} and the locked-out state in {@code svc nodes list}, through the real CLI. */
class LockCliTest {

    @TempDir
    Path folder;
    @RegisterExtension
    final ServerWithCli cli = ServerWithCli.in(() -> folder);

    private CliRun svc(String... args) {
        CliRun run = cli.run(args);
        assertEquals(0, run.exitCode(), run.toString());
        return run;
    }

    @Test
    void lockStatusShowsTheTrustedKeysAndEachLockedOutMachineWithTheCommandThatSignsIt() {
        assertTrue(svc("lock", "status").out().lines().anyMatch(line -> line.startsWith("no")),
                "lock is off before any machine initialises it");
        svc("users", "create", "--name", "odin");
        String key = svc("preauthkeys", "create", "--user", "odin", "--reusable").firstLine();
        Node signer = Machine.named("signer").join(cli.server().network, key);
        TestSigner trusted = new TestSigner();
        TailnetLock lock = cli.server().network.tailnetLock();
        lock.initBegin(signer, trusted.genesis(List.of(trusted), LockCrypto.disablementValue(new byte[] {1})));
        lock.initFinish(signer, Map.of(signer.id(), trusted.sign(signer.nodeKey())));
        Node late = Machine.named("late").join(cli.server().network, key);

        String status = svc("lock", "status").out();
        String command = "tailscale lock sign " + late.nodeKey().toText();
        assertTrue(status.contains(trusted.text()) && status.contains("late: " + command), status);
        assertTrue(svc("lock", "status", "-o", "json").out().contains("\"enabled\" : true"));
        String nodes = svc("nodes", "list").out();
        assertTrue(nodes.lines().anyMatch(line -> line.contains("late") && line.contains("locked out by tailnet lock: "
                + command)), nodes);
        assertTrue(nodes.lines().anyMatch(line -> line.contains("signer") && line.contains("approved")), nodes);

        lock.sign(signer, trusted.sign(late.nodeKey()));
        assertTrue(!svc("nodes", "list").out().contains("locked out"), "signed: no longer locked out");
    }
}
