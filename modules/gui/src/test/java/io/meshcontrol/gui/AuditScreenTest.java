package io.meshcontrol.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.api.AuditEntryView;
import io.meshcontrol.api.UserRequest;
import io.meshcontrol.server.testing.TestServer;
import java.nio.file.Path;
import java.util.List;
import javafx.scene.control.TableView;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AuditScreenTest {

    @TempDir
    Path folder;
    private TestServer server;
    private RunningApp app;

    @BeforeEach
    void start() throws Exception {
        server = TestServer.start(folder);
        // More user creations than one page holds (AuditViewModel.PAGE = 50), and one other action.
        for (int i = 0; i < 60; i++) {
            server.adminClient().createUser(new UserRequest("user" + i, null, null, null));
        }
        server.adminClient().deleteUser(server.adminClient().user("user0").id());
        app = RunningApp.start(folder.resolve("config"), server.localCredentialPath()).connectLocally();
        app.click("Audit log");
    }

    @AfterEach
    void stop() throws Exception {
        app.close();
        server.close();
    }

    @SuppressWarnings("unchecked")
    private List<AuditEntryView> rows() {
        return app.onFx(() -> List.copyOf(app.robot.lookup("#auditEntries").queryAs(TableView.class).getItems()));
    }

    @Test
    void theLogIsFilteredAndPaged() {
        app.await("the newest page", () -> rows().size() == 50);
        assertEquals("user.delete", rows().getFirst().action(), "newest first");
        app.screenshot("desktop-audit");

        app.click("#auditOlder");
        app.await("the older page", () -> app.text("#auditPage").startsWith("Page 2,"));
        assertTrue(rows().stream().allMatch(entry -> entry.id() < 50 + 2), "older entries");
        app.click("#auditNewer");
        app.await("back on the first page", () -> app.text("#auditPage").startsWith("Page 1,")
                && rows().getFirst().action().equals("user.delete"));

        app.type("#auditAction", "user.delete");
        app.click("#auditFilter");
        app.await("only the deletion", () -> rows().size() == 1 && rows().getFirst().action().equals("user.delete"));
    }
}
