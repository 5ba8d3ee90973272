package io.meshcontrol.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.api.ApiException;
import io.meshcontrol.api.UserRequest;
import io.meshcontrol.api.UserView;
import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.model.Role;
import io.meshcontrol.core.model.User;
import io.meshcontrol.core.state.Users;
import io.meshcontrol.core.testing.AuthKey;
import io.meshcontrol.core.testing.Machine;
import io.meshcontrol.core.testing.MovableClock;
import io.meshcontrol.core.testing.PostgresCluster;
import io.meshcontrol.server.testing.TestServer;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The one composition root: what the configuration asks for is what runs, and closing it stops all of it. */
class ApplicationTest {

    private static final String FIRST = "{\"tagOwners\": {\"tag:web\": []}}\n";
    private static final String SECOND = "{\"tagOwners\": {\"tag:web\": [], \"tag:db\": []}}\n";

    @TempDir
    Path folder;

    @Test
    void policyFileModeServesTheFileAndReloadReadsItAgain() throws IOException {
        Path policy = Files.writeString(folder.resolve("policy.hujson"), FIRST);
        try (TestServer server = TestServer.in(folder).set("policy.mode", "file").set("policy.path", policy.toString())
                .start()) {
            assertEquals(policy, server.application.policyFile().orElseThrow());
            assertEquals(FIRST, server.adminClient().policy().policy());
            assertEquals(409, assertThrows(ApiException.class, () -> server.adminClient().setPolicy(SECOND)).status(),
                    "the file is the policy");
            Files.writeString(policy, SECOND);
            server.application.reloadPolicy(); // SIGHUP's path; the watcher may have been quicker, which is as good
            assertEquals(SECOND, server.adminClient().policy().policy());
        }
    }

    @Test
    void onPostgresTheServerKeepsItsNetworkAcrossARestart() {
        Assumptions.assumeTrue(PostgresCluster.installed(), "PostgreSQL is not installed (run-tests installs it)");
        Map<String, String> database = PostgresCluster.shared().newEmptyDatabaseConfig();
        TestServer.Builder builder = TestServer.in(folder);
        database.forEach(builder::set);
        String tailnetId;
        try (TestServer server = builder.start()) {
            server.adminClient().createUser(new UserRequest("odin", null, null, "member"));
            tailnetId = server.network.tailnetId();
            assertTrue(server.network.checkpointDatabase(), "nothing to checkpoint on PostgreSQL");
        }
        try (TestServer again = builder.start()) {
            assertEquals(List.of("odin"), again.adminClient().users().stream().map(UserView::name).toList());
            assertEquals(tailnetId, again.network.tailnetId());
        }
    }

    @Test
    void databaseModeHasNoPolicyFileToReload() {
        try (TestServer server = TestServer.start(folder)) {
            assertTrue(server.application.policyFile().isEmpty());
            assertFalse(server.application.reloadPolicy());
        }
    }

    @Test
    void aBadPolicyFileStopsTheStartNamingTheFile() throws IOException {
        Path policy = Files.writeString(folder.resolve("policy.hujson"), "{\"tagOwners\": {\"tag:x\": [\"group:none\"]}}");
        TestServer.Builder builder = TestServer.in(folder).set("policy.mode", "file")
                .set("policy.path", policy.toString());
        Application.PolicyFileRejected refused = assertThrows(Application.PolicyFileRejected.class, builder::start);
        assertTrue(refused.getMessage().startsWith("policy file " + policy + ": "), refused.getMessage());
        assertFalse(Files.exists(folder.resolve("data/cli-credential.json")), "no listener started");
    }

    @Test
    void theNetworkGetsItsAddressRangeAndClockFromTheStart() {
        MovableClock clock = MovableClock.startingAt2026();
        try (TestServer server = TestServer.in(folder).clock(clock).set("prefixes.v4", "100.80.0.0/16").start()) {
            clock.advance(Duration.ofDays(1));
            User odin = server.network.users().create(Caller.localAdmin(),
                    new Users.NewUser("odin", null, null, Role.MEMBER));
            assertEquals(Instant.parse("2026-01-02T00:00:00Z"), odin.createdAt());
            Node laptop = Machine.named("laptop").join(server.network, AuthKey.forUser("odin").create(server.network));
            assertTrue(laptop.ipv4().startsWith("100.80."), laptop.ipv4());
        }
    }

    @Test
    void closingStopsTheListenersAndRemovesTheLocalCredential() throws IOException {
        TestServer server = TestServer.start(folder);
        int port = server.server.httpAddress().getPort();
        assertTrue(Files.exists(server.localCredentialPath()));
        server.close();
        assertFalse(Files.exists(server.localCredentialPath()));
        try (ServerSocket again = new ServerSocket(port)) {
            assertEquals(port, again.getLocalPort(), "the port is free again");
        }
    }
}
