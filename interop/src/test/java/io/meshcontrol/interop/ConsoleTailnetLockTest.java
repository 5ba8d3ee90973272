package io.meshcontrol.interop;

import io.meshcontrol.api.ApiKeyRequest;
import io.meshcontrol.api.MeshClient;
import io.meshcontrol.api.PreAuthKeyRequest;
import io.meshcontrol.core.lock.LockCrypto;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.state.Network;
import io.meshcontrol.core.state.TailnetLock;
import io.meshcontrol.core.testing.Machine;
import io.meshcontrol.core.testing.TestSigner;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;

/**
 * The console under the tailnet lock: a machine that joined unsigned is marked locked out in the machine list, its
 * page names the command that signs it, and both clear by themselves once it is signed. The lock is set up by a test
 * signer here (TailnetLockTest drives the same server part with real clients).
 */
class ConsoleTailnetLockTest {

    @RegisterExtension
    final TailscaleNodes nodes = new TailscaleNodes();

    @TempDir
    Path folder;

    private ConsoleOnNetwork console;

    @AfterEach
    void stop() throws Exception {
        if (console != null) {
            console.close();
        }
    }

    @Test
    void aLockedOutMachineIsMarkedWithTheCommandThatSignsItUntilItIsSigned() {
        console = ConsoleOnNetwork.start(folder, nodes);
        MeshClient admin = console.admin();
        Network network = console.network().server().network;
        String joinKey = admin.createPreAuthKey(new PreAuthKeyRequest("alice", null, true, false, false, "t", null))
                .secret();
        Node signer = Machine.named("signer").join(network, joinKey);
        TestSigner key = new TestSigner();
        TailnetLock lock = network.tailnetLock();
        lock.initBegin(signer, key.genesis(List.of(key), LockCrypto.disablementValue(new byte[] {1})));
        lock.initFinish(signer, Map.of(signer.id(), key.sign(signer.nodeKey())));
        Node late = Machine.named("late").join(network, joinKey);
        String command = "tailscale lock sign " + late.nodeKey().toText();

        ConsoleBrowser browser = console.browser();
        browser.signIn(admin.createApiKey(new ApiKeyRequest("alice", List.of(), "console test", "24h")).secret());
        browser.waitFor(By.cssSelector("tr[data-machine='late'] [data-locked-out]"));
        browser.waitFor(By.cssSelector("tr[data-machine='signer']"));
        if (browser.present(By.cssSelector("tr[data-machine='signer'] [data-locked-out]"))) {
            throw new AssertionError("the signed machine is not marked");
        }
        browser.assertAccessible("machines-tailnet-lock");
        browser.click(By.linkText("late"));
        browser.waitForText(command);
        browser.assertAccessible("machine-tailnet-lock");
        browser.screenshot("console-machine-locked-out");

        lock.sign(signer, key.sign(late.nodeKey()));
        browser.waitGone(By.cssSelector("dd[data-tailnet-lock]"));
    }
}
