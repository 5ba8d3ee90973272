package io.meshcontrol.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.event.MeshEvent;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.testing.Machine;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** Node suspension and access requests through the real CLI, local and with a user's own key. */
class EventTriggersCliTest {

    @TempDir
    Path folder;
    @RegisterExtension
    final ServerWithCli cli = ServerWithCli.in(() -> folder);
    final List<String> events = new CopyOnWriteArrayList<>();

    @BeforeEach
    void start() {
        assertEquals(0, cli.run("users", "create", "--name", "odin").exitCode());
        cli.server().network.events().subscribe(event -> events.add(event.type()));
    }

    @Test
    void suspendAndUnsuspendANodeByName() {
        String key = cli.run("preauthkeys", "create", "--user", "odin").firstLine();
        Node laptop = Machine.named("laptop").join(cli.server().network, key);
        events.clear();

        CliRun suspended = cli.run("nodes", "suspend", "-i", "laptop");
        assertEquals(0, suspended.exitCode(), suspended.toString());
        assertTrue(suspended.out().lines().anyMatch(line -> line.contains("laptop") && line.contains("suspended")),
                suspended.out());
        assertTrue(cli.server().network.nodes().get(Caller.localAdmin(), laptop.id()).suspended());

        CliRun again = cli.run("nodes", "suspend", "-i", "laptop");
        assertEquals(1, again.exitCode());
        assertEquals("svc: node laptop is already suspended (HTTP 409)\n", again.err());

        assertEquals(0, cli.run("nodes", "unsuspend", "-i", String.valueOf(laptop.id())).exitCode());
        assertEquals(List.of("nodeSuspended", "nodeUnsuspended"), events);
    }

    @Test
    void aUserAsksWithTheirOwnKeyAndAnApproverDecides() {
        cli.server().network.policies().set(Caller.localAdmin(), """
                {"groups": {"group:oncall": []}, "acls": [{"action": "accept", "src": ["group:oncall"], "dst": ["*:*"]}]}
                """, null);
        String odinsKey = cli.run("apikeys", "create", "--user", "odin").firstLine();
        events.clear();

        CliRun asked = cli.remote(odinsKey, "access-requests", "create", "--group", "group:oncall",
                "--reason", "incident 42", "--duration", "90m", "-o", "json");
        assertEquals(0, asked.exitCode(), asked.toString());
        assertTrue(asked.out().contains("\"state\" : \"pending\""), asked.out());
        assertTrue(asked.out().contains("\"duration\" : \"1h30m\""), asked.out());

        CliRun refused = cli.remote(odinsKey, "access-requests", "approve", "--id", "1");
        assertEquals(1, refused.exitCode());
        assertEquals("svc: this credential lacks the scope \"policy_file\" (HTTP 403)\n", refused.err());

        CliRun approved = cli.run("access-requests", "approve", "--id", "1");
        assertEquals(0, approved.exitCode(), approved.toString());
        assertTrue(approved.out().contains("approved"), approved.out());
        assertTrue(cli.run("access-requests", "list").out().contains("incident 42"));
        assertEquals(0, cli.run("access-requests", "revoke", "--id", "1").exitCode());
        assertTrue(cli.run("access-requests", "show", "--id", "1").out().contains("revoked"));

        CliRun late = cli.run("access-requests", "deny", "--id", "1");
        assertEquals(1, late.exitCode());
        assertTrue(late.err().startsWith("svc: access request 1 is revoked"), late.err());
        assertEquals(List.of("accessRequestCreated", "accessRequestApproved", "policyUpdate", "accessRequestRevoked",
                "policyUpdate"), events);
    }
}
