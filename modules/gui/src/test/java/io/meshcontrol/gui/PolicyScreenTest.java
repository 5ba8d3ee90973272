package io.meshcontrol.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.api.UserRequest;
import io.meshcontrol.gui.policy.PolicyError;
import io.meshcontrol.server.testing.TestServer;
import java.nio.file.Path;
import java.util.List;
import javafx.scene.control.ListView;
import org.fxmisc.richtext.CodeArea;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PolicyScreenTest {

    private static final String BAD = """
            {
              "acls": [
                {"action": "accept", "src": ["*"], "dst": ["*:*"]},
                {"action": "accept", "src": ["group:eng"], "dst": ["*:22"]}
              ]
            }
            """;
    private static final String GOOD = """
            {
              "groups": {"group:eng": ["odin@"]},
              "acls": [
                {"action": "accept", "src": ["*"], "dst": ["*:*"]},
                {"action": "accept", "src": ["group:eng"], "dst": ["*:22"]}
              ]
            }
            """;

    @TempDir
    Path folder;
    private TestServer server;
    private RunningApp app;

    @BeforeEach
    void start() throws Exception {
        server = TestServer.start(folder);
        server.adminClient().createUser(new UserRequest("odin", null, null, null));
        app = RunningApp.start(folder.resolve("config"), server.localCredentialPath()).connectLocally();
        app.click("Policy");
        app.await("the policy read", () -> app.text("#policyEditor").equals(server.adminClient().policy().policy()));
    }

    @AfterEach
    void stop() throws Exception {
        app.close();
        server.close();
    }

    @SuppressWarnings("unchecked")
    private List<PolicyError> errors() {
        return app.onFx(() -> List.copyOf(app.robot.lookup("#policyErrors").queryAs(ListView.class).getItems()));
    }

    @Test
    void aRefusedPolicyShowsItsErrorAtItsLineAndTheFixedOneIsSaved() {
        String before = server.adminClient().policy().policy();
        app.setText("#policyEditor", BAD);
        app.click("#savePolicy");
        app.await("the error", () -> !errors().isEmpty());
        PolicyError error = errors().getFirst();
        assertEquals(4, error.line(), error.toString());
        assertEquals(34, error.column(), "at the value, where the server places it: " + error);
        assertTrue(error.message().contains("group:eng"), error.message());
        assertEquals("\"group:eng\"], \"dst\": [\"*:22\"]}",
                app.onFx(() -> app.robot.lookup("#policyEditor").queryAs(CodeArea.class).getSelectedText()),
                "the editor selects the error's line from its column");
        assertEquals(List.of("error-line"), app.onFx(() -> List.copyOf(app.robot.lookup("#policyEditor")
                .queryAs(CodeArea.class).getParagraph(3).getParagraphStyle())), "the line is marked");
        assertEquals(before, server.adminClient().policy().policy(), "nothing saved");
        app.screenshot("desktop-policy-error");

        app.setText("#policyEditor", GOOD);
        app.click("#savePolicy");
        app.await("saved", () -> server.adminClient().policy().policy().equals(GOOD));
        app.await("the error gone", () -> errors().isEmpty());
        assertEquals("Policy saved", app.text("#statusMessage"), "no tests: nothing to say of them");
        // The status bar tells of the last action only: reading the keys is not "Policy saved".
        app.click("Keys");
        app.await("the old outcome gone", () -> app.text("#statusMessage").isEmpty());
    }

    @Test
    void aPolicySavedByAnotherSinceItWasReadIsNotOverwritten() {
        server.adminClient().setPolicy(GOOD);
        app.setText("#policyEditor", BAD.replace("group:eng", "autogroup:member"));
        app.click("#savePolicy");
        app.await("the conflict", () -> !errors().isEmpty());
        assertTrue(errors().getFirst().message().startsWith("Someone saved another policy"), errors().toString());
        assertEquals(GOOD, server.adminClient().policy().policy());
    }

    @Test
    void checkValidatesWithoutSaving() {
        String before = server.adminClient().policy().policy();
        app.setText("#policyEditor", GOOD);
        app.click("#checkPolicy");
        app.await("the verdict", () -> app.text("#statusMessage").startsWith("The policy is valid"));
        assertEquals(before, server.adminClient().policy().policy());
    }

    private static final String TESTED = """
            {
              "tagOwners": {"tag:web": []},
              "grants": [{"src": ["alice@example.com"], "dst": ["tag:web"], "ip": ["tcp:443"]}],
              "tests": [{"src": "alice@example.com", "accept": ["tag:web:443"], "deny": ["tag:web:22"]}],
            }
            """;

    @Test
    void theTestsRunBeforeSaveAndAFailingOneBlocksIt() {
        server.adminClient().createUser(new UserRequest("alice", null, "alice@example.com", "member"));
        String before = server.adminClient().policy().policy();
        app.setText("#policyEditor", TESTED.replace("\"deny\": [\"tag:web:22\"]", "\"deny\": [\"tag:web:443\"]"));
        app.click("#savePolicy");
        app.await("blocked", () -> app.text("#statusMessage").startsWith("The policy was not saved: its check failed"));
        assertEquals("The policy was not saved: its check failed (a test of the policy failed)",
                app.text("#statusMessage"));
        assertTrue(errors().getFirst().message().contains("test(s) failed"), errors().toString());
        assertEquals(before, server.adminClient().policy().policy(), "nothing saved");

        app.setText("#policyEditor", TESTED);
        app.click("#savePolicy");
        app.await("saved", () -> server.adminClient().policy().policy().equals(TESTED));
        app.await("said, with the tests run first", () -> app.text("#statusMessage")
                .equals("Policy saved (1 test passed first)"));
    }
}
