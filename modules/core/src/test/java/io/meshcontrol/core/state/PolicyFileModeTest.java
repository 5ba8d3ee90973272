package io.meshcontrol.core.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.event.MeshEvent;
import io.meshcontrol.core.model.Role;
import io.meshcontrol.core.testing.TestNetwork;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The policy read from a file ({@code policy.mode: file}), reloaded on change; and checking without saving. */
class PolicyFileModeTest {

    private static final String FIRST = "{\"tagOwners\": {\"tag:web\": [\"autogroup:admin\"]}}\n";
    private static final String SECOND = "{\n  // now also db\n  \"tagOwners\": {\"tag:web\": [], \"tag:db\": []},\n}\n";

    @TempDir
    Path folder;
    TestNetwork net;
    Path file;
    final List<MeshEvent> events = new CopyOnWriteArrayList<>();

    @BeforeEach
    void setUp() throws Exception {
        net = new TestNetwork(folder);
        net.network.users().create(net.admin, new Users.NewUser("alice", null, "alice@example.com", Role.MEMBER));
        Path policies = Files.createDirectories(folder.resolve("policies"));
        file = policies.resolve("policy.hujson");
        Files.writeString(file, FIRST);
        net.network.events().subscribe(events::add);
    }

    @Test
    void theFileIsThePolicyAndTheApiCannotSaveOne() {
        net.network.policies().useFile(file);
        assertEquals(FIRST, net.network.policies().get(net.admin).policy().text());
        assertTrue(events.getLast() instanceof MeshEvent.PolicyUpdated updated
                && updated.actor().equals(Policies.FILE_ACTOR));
        MeshException refused = assertThrows(MeshException.class, () -> net.policy(SECOND));
        assertEquals(MeshException.Reason.CONFLICT, refused.reason());
        assertEquals("the policy is read from " + file + " (policy.mode: file); edit that file instead: the server "
                + "reloads it when it changes and on SIGHUP", refused.getMessage());
        assertEquals(FIRST, net.network.policies().policy().text());
    }

    @Test
    void anInvalidFileRefusesToStartFileModeNamingTheFile() throws Exception {
        Files.writeString(file, "{\"acls\": [{\"action\": \"accept\", \"src\": [\"tag:x\"], \"dst\": [\"*:*\"]}]}");
        MeshException refused = assertThrows(MeshException.class, () -> net.network.policies().useFile(file));
        assertEquals("policy file " + file + ": src=tag not found: \"tag:x\"", refused.getMessage());
        assertNull(net.network.policies().file());
    }

    @Test
    void reloadTakesAValidFileAndKeepsThePolicyWhenTheFileIsBad() throws Exception {
        net.network.policies().useFile(file);
        events.clear();
        assertFalse(net.network.policies().reload(), "unchanged: nothing to do");
        Files.writeString(file, "{\"tagOwners\": {\"tag:x\": [\"group:nobody\"]}}");
        assertFalse(net.network.policies().reload());
        assertEquals(FIRST, net.network.policies().policy().text(), "a bad file changes nothing");
        assertTrue(events.isEmpty());
        Files.writeString(file, SECOND);
        assertTrue(net.network.policies().reload());
        assertEquals(SECOND, net.network.policies().policy().text());
        assertTrue(net.network.policies().policy().definesTag("tag:db"));
        assertEquals(1, events.size(), "one policyUpdate per applied change");
        var reloads = net.network.auditLog().recent("policy.reload", 10);
        assertEquals(2, reloads.size(), "taking the file at start and the applied change; the bad file left none: "
                + reloads);
        assertEquals(Policies.FILE_ACTOR, reloads.getFirst().actor());
        assertEquals(file.toString(), reloads.getFirst().target());
        assertTrue(reloads.getFirst().details().containsKey("newEtag"), reloads.getFirst().details().toString());
    }

    @Test
    void aReplacedFileIsPickedUpByTheWatcher() throws Exception {
        net.network.policies().useFile(file);
        LinkedBlockingQueue<MeshEvent> updates = new LinkedBlockingQueue<>();
        net.network.events().subscribe(event -> {
            if (event instanceof MeshEvent.PolicyUpdated) {
                updates.add(event);
            }
        });
        try (PolicyFileWatcher watcher = PolicyFileWatcher.start(net.network.policies())) {
            // as editors save: write a new file, rename it over the old one
            Path fresh = file.resolveSibling(".policy.hujson.new");
            Files.writeString(fresh, SECOND);
            Files.move(fresh, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            assertTrue(updates.poll(30, TimeUnit.SECONDS) != null, "the watcher reloads the changed file");
        }
        assertEquals(SECOND, net.network.policies().policy().text());
    }

    @Test
    void checkValidatesAndRunsTestsWithoutSaving() {
        String etag = net.network.policies().get(net.admin).etag();
        String withTests = "{\"tagOwners\": {\"tag:web\": []}, \"acls\": [{\"action\": \"accept\","
                + " \"src\": [\"alice@example.com\"], \"dst\": [\"tag:web:443\"]}],"
                + " \"tests\": [{\"src\": \"alice@example.com\", \"accept\": [\"tag:web:443\"]}]}";
        assertEquals(1, net.network.policies().check(net.admin, withTests).tests().size());
        assertEquals(etag, net.network.policies().get(net.admin).etag(), "nothing saved");
        MeshException failed = assertThrows(MeshException.class,
                () -> net.network.policies().check(net.admin, withTests.replace("443\"]}]}", "80\"]}]}")));
        assertEquals("test(s) failed: accept \"tag:web:80\" from alice@example.com: got drop", failed.getMessage());
        assertThrows(MeshException.class, () -> net.policy(withTests.replace("443\"]}]}", "80\"]}]}")),
                "saving runs the same tests");
        assertEquals(etag, net.network.policies().get(net.admin).etag());
    }
}
