package io.meshcontrol.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.meshcontrol.api.AccessRequestRequest;
import io.meshcontrol.api.AccessRequestView;
import io.meshcontrol.api.UserRequest;
import io.meshcontrol.server.testing.TestServer;
import java.nio.file.Path;
import java.util.List;
import javafx.scene.control.TableView;
import javafx.scene.input.KeyCode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AccessRequestsScreenTest {

    @TempDir
    Path folder;
    private TestServer server;
    private RunningApp app;

    @BeforeEach
    void start() throws Exception {
        server = TestServer.start(folder);
        server.adminClient().createUser(new UserRequest("loki", null, null, null));
        server.adminClient().setPolicy("""
                {"groups": {"group:oncall": []}, "acls": [{"action": "accept", "src": ["*"], "dst": ["*:*"]}]}
                """);
        app = RunningApp.start(folder.resolve("config"), server.localCredentialPath()).connectLocally();
        app.click("Access requests");
    }

    @AfterEach
    void stop() throws Exception {
        app.close();
        server.close();
    }

    @SuppressWarnings("unchecked")
    private List<AccessRequestView> rows() {
        return app.onFx(() -> List.copyOf(app.robot.lookup("#accessRequests").queryAs(TableView.class).getItems()));
    }

    private String state(String id) {
        return server.adminClient().accessRequest(id).state();
    }

    @Test
    void aRequestFiledElsewhereShowsUpLiveAndIsApprovedWithTheShortcutThenRevoked() {
        AccessRequestView filed = server.adminClient().createAccessRequest(
                new AccessRequestRequest("loki", "group:oncall", "incident 42", "8h"));
        // No refresh: the event stream brings it.
        app.await("the request listed", () -> rows().stream().anyMatch(row -> row.id().equals(filed.id())));
        app.selectRows("#accessRequests", "incident 42");
        app.robot.press(KeyCode.CONTROL, KeyCode.SHIFT, KeyCode.A).release(KeyCode.A, KeyCode.SHIFT, KeyCode.CONTROL);
        app.answerDialog("OK");
        app.await("approved on the server", () -> state(filed.id()).equals("approved"));
        app.await("approved in the table", () -> rows().stream().anyMatch(row -> row.state().equals("approved")));
        app.screenshot("desktop-access-requests");

        app.selectRows("#accessRequests", "incident 42");
        app.click("#revokeRequest");
        app.answerDialog("OK");
        app.await("revoked on the server", () -> state(filed.id()).equals("revoked"));
    }

    @Test
    void aRequestIsAskedForAndDenied() {
        app.type("#requestGroup", "group:oncall");
        app.type("#requestDuration", "2 days"); // as everywhere in svc: HumanDuration
        app.type("#requestReason", "deploy");
        app.type("#requestUser", "loki");
        app.click("#askAccess");
        app.await("filed on the server", () -> server.adminClient().accessRequests().size() == 1);
        AccessRequestView filed = server.adminClient().accessRequests().getFirst();
        assertEquals("loki", filed.user());
        assertEquals("48h", filed.duration());
        app.selectRows("#accessRequests", "deploy");
        app.await("Deny enabled", () -> !app.robot.lookup("#denyRequest").query().isDisabled());
        app.click("#denyRequest");
        app.await("denied on the server", () -> state(filed.id()).equals("denied"));
    }

    @Test
    void aGroupThePolicyLacksIsRefusedInWords() {
        app.type("#requestGroup", "group:nosuch");
        app.type("#requestDuration", "2h");
        app.type("#requestReason", "x");
        app.type("#requestUser", "loki");
        app.click("#askAccess");
        app.await("the refusal", () -> app.text("#statusMessage").startsWith("Asking for group:nosuch: "));
        assertEquals(List.of(), server.adminClient().accessRequests());
    }

    @Test
    void aDurationIsPickedFromThePresetsAndABadOneIsSaidInWords() {
        app.click("#requestDurationPresets");
        app.click("8 hours");
        assertEquals("8h", app.text("#requestDuration"));
        app.type("#requestDuration", "1 month");
        app.type("#requestGroup", "group:oncall");
        app.click("#askAccess");
        app.await("the reason", () -> app.text("#statusMessage").startsWith("For how long: unknown unit \"month\""));
        assertEquals(List.of(), server.adminClient().accessRequests());
    }
}
