package io.meshcontrol.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.state.Settings;
import io.meshcontrol.core.state.Users;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** {@code svc users approve}: a user made by a first login while users approval is on, listed as waiting. */
class UsersApprovalCliTest {

    @TempDir
    Path folder;

    @RegisterExtension
    final ServerWithCli cli = ServerWithCli.in(() -> folder);

    @Test
    void aWaitingUserIsListedAsSuchUntilApproved() {
        var network = cli.server().network;
        network.settings().update(Caller.localAdmin(), new Settings.Change(null, true, null, null));
        network.users().logIn(new Users.PersonLogin("https://login.example.com", "sub-1", "freya", "Freya", ""));

        CliRun listed = cli.run("users", "list");
        assertTrue(listed.out().contains("needs approval"), listed.toString());
        CliRun approved = cli.run("users", "approve", "--name", "freya");
        assertEquals(0, approved.exitCode(), approved.toString());
        assertTrue(approved.out().contains("active"), approved.toString());
        assertTrue(network.users().requireByName("freya").approved());

        CliRun again = cli.run("users", "approve", "--name", "freya");
        assertEquals(1, again.err().lines().count(), again.toString());
        assertTrue(again.err().contains("user freya is already approved"), again.toString());
        assertTrue(again.exitCode() != 0);
    }
}
