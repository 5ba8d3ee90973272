package io.meshcontrol.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.api.AppView;
import io.meshcontrol.server.testing.TestServer;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AppsScreenTest {

    @TempDir
    Path folder;
    private TestServer server;
    private RunningApp app;

    @BeforeEach
    void start() throws Exception {
        server = TestServer.start(folder);
        server.adminClient().setPolicy("""
                {"tagOwners": {"tag:connector": ["autogroup:admin"]},
                 "acls": [{"action": "accept", "src": ["*"], "dst": ["*:*"]}]}
                """);
        app = RunningApp.start(folder.resolve("config"), server.localCredentialPath()).connectLocally();
        app.click("Apps");
    }

    @AfterEach
    void stop() throws Exception {
        app.close();
        server.close();
    }

    @Test
    void anAppIsCreatedChangedAndDeleted() {
        app.type("#appName", "github");
        app.type("#appDomains", "github.com, *.github.com");
        app.type("#appConnectors", "tag:connector");
        app.click("#createApp");
        app.await("created on the server", () -> server.adminClient().apps().size() == 1);
        AppView made = server.adminClient().apps().getFirst();
        assertEquals(List.of("github.com", "*.github.com"), made.domains());
        assertEquals(List.of("tag:connector"), made.connectors());
        app.await("the outcome", () -> app.text("#statusMessage").equals("Created the app github"));
        app.screenshot("desktop-apps");

        app.clickCell("#apps", "github");
        app.type("#appDomains", "gitlab.com");
        app.click("#saveApp");
        app.await("changed on the server", () -> server.adminClient().apps().getFirst().domains()
                .equals(List.of("gitlab.com")));

        app.clickCell("#apps", "github");
        app.click("#deleteApp");
        app.answerDialog("OK");
        app.await("deleted on the server", () -> server.adminClient().apps().isEmpty());
    }

    @Test
    void anAppWithoutDomainsIsRefusedAsTheServerWordsIt() {
        app.type("#appName", "empty");
        app.click("#createApp");
        app.await("the refusal", () -> app.text("#statusMessage").startsWith("Creating the app empty: "));
        assertTrue(server.adminClient().apps().isEmpty());
    }
}
