package io.meshcontrol.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.meshcontrol.api.NodeView;
import io.meshcontrol.api.SettingsView;
import io.meshcontrol.api.UserRequest;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.testing.AuthKey;
import io.meshcontrol.core.testing.Machine;
import io.meshcontrol.server.testing.TestServer;
import java.nio.file.Path;
import java.util.List;
import javafx.scene.control.TableView;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MachinesScreenTest {

    @TempDir
    Path folder;
    private TestServer server;
    private RunningApp app;

    @BeforeEach
    void start() throws Exception {
        server = TestServer.start(folder);
        server.adminClient().createUser(new UserRequest("odin", null, null, null));
        app = RunningApp.start(folder.resolve("config"), server.localCredentialPath()).connectLocally();
    }

    @AfterEach
    void stop() throws Exception {
        app.close();
        server.close();
    }

    private Node join(String name, String... routes) {
        return Machine.named(name).advertising(routes).join(server.network, AuthKey.forUser("odin").create(server.network));
    }

    @SuppressWarnings("unchecked")
    private List<NodeView> rows() {
        return app.onFx(() -> List.copyOf(app.robot.lookup("#machines").queryAs(TableView.class).getItems()));
    }

    private NodeView row(String name) {
        return rows().stream().filter(node -> node.name().equals(name)).findFirst().orElseThrow();
    }

    /** Selects the machine's row, once the table shows it, and waits for its detail pane. */
    private void select(String name) {
        app.selectRows("#machines", name);
        app.await(name + " in the detail pane", () -> app.robot.lookup("#renameField").tryQuery().isPresent()
                && app.text("#renameField").equals(name));
    }

    @Test
    void aMachineAppearsGoesOnlineAndOfflineWithoutARefresh() {
        Node laptop = join("laptop");
        app.await("laptop listed", () -> rows().stream().anyMatch(node -> node.name().equals("laptop")));
        assertFalse(row("laptop").online());

        server.network.presence().connected(laptop);
        app.await("laptop online", () -> row("laptop").online());
        app.screenshot("desktop-machines");
        server.network.presence().disconnected(laptop);
        app.await("laptop offline", () -> !row("laptop").online() && row("laptop").lastSeen() != null);
    }

    @Test
    void aMachineWaitingForApprovalIsApprovedFromItsDetailPane() {
        server.adminClient().updateSettings(new SettingsView(true, null, null));
        Node desktop = join("desktop");
        app.await("desktop listed", () -> rows().stream().anyMatch(node -> node.name().equals("desktop")));
        assertEquals("needs approval", io.meshcontrol.gui.machines.MachinesViewModel.status(row("desktop")));
        select("desktop");
        app.screenshot("desktop-machine-needs-approval");
        app.click("#approveMachine");
        app.await("approved on the server", () -> server.adminClient().node(Long.toString(desktop.id())).authorized());
        app.await("approved in the table", () -> row("desktop").authorized());
    }

    @Test
    void theSelectedMachineIsApprovedWithTheKeyboard() {
        server.adminClient().updateSettings(new SettingsView(true, null, null));
        Node laptop = join("laptop");
        select("laptop");
        app.robot.press(javafx.scene.input.KeyCode.CONTROL, javafx.scene.input.KeyCode.SHIFT,
                javafx.scene.input.KeyCode.A).release(javafx.scene.input.KeyCode.A, javafx.scene.input.KeyCode.SHIFT,
                javafx.scene.input.KeyCode.CONTROL);
        app.await("approved on the server", () -> server.adminClient().node(Long.toString(laptop.id())).authorized());
    }

    @Test
    void waitingRoutesAreApprovedFromTheDetailPane() {
        Node router = join("router", "10.1.0.0/24");
        app.await("router listed", () -> rows().stream().anyMatch(node -> node.name().equals("router")));
        assertEquals("1 route waiting", io.meshcontrol.gui.machines.MachinesViewModel.status(row("router")));
        select("router");
        app.click("#approveRoutes");
        app.await("route approved on the server", () -> server.adminClient().nodeRoutes(Long.toString(router.id()))
                .approved().equals(List.of("10.1.0.0/24")));
        app.await("nothing waiting in the table", () -> io.meshcontrol.gui.machines.MachinesViewModel.status(row("router")).equals("ok"));
        app.screenshot("desktop-routes-approved");
    }

    @Test
    void theFilterNarrowsTheTableAndRenameAndTagsApply() {
        server.adminClient().setPolicy("""
                {
                  "tagOwners": {"tag:web": ["odin@"]},
                  "acls": [{"action": "accept", "src": ["*"], "dst": ["*:*"]}]
                }
                """);
        join("alpha");
        join("beta", "10.2.0.0/16");
        app.await("both listed", () -> rows().size() == 2);
        app.type("#machineFilter", "route waiting");
        app.await("only beta", () -> rows().size() == 1 && rows().getFirst().name().equals("beta"));
        app.type("#machineFilter", "");
        app.await("both again", () -> rows().size() == 2);

        select("alpha");
        app.type("#renameField", "alpha-renamed");
        app.click("#rename");
        app.await("renamed on the server", () -> server.adminClient().nodes().stream()
                .anyMatch(node -> node.name().equals("alpha-renamed")));
        app.await("renamed in the table", () -> rows().stream().anyMatch(node -> node.name().equals("alpha-renamed")));
        app.type("#tagsField", "tag:web");
        app.click("#setTags");
        app.await("tagged", () -> server.adminClient().nodes().stream()
                .anyMatch(node -> node.name().equals("alpha-renamed") && node.tags().equals(List.of("tag:web"))));
        app.await("the outcome in the status bar", () -> app.text("#statusMessage")
                .equals("Setting tags alpha-renamed: done"));
    }

    @Test
    void expireAndDeleteAskFirstThenApply() {
        Node old = join("old");
        select("old");
        app.click("#expireMachine");
        app.answerDialog("Cancel");
        app.click("#deleteMachine");
        app.answerDialog("Cancel");
        assertFalse(server.adminClient().node(Long.toString(old.id())).expired(), "cancelled: not expired");
        assertEquals(1, server.adminClient().nodes().size(), "cancelled: not deleted");

        app.click("#expireMachine");
        app.awaitShown(".dialog-pane");
        assertEquals("Expire the key of old? It must log in again.", app.onFx(() -> app.robot.lookup(".dialog-pane")
                .queryAs(javafx.scene.control.DialogPane.class).getContentText()));
        app.answerDialog("OK");
        app.await("expired on the server", () -> server.adminClient().node(Long.toString(old.id())).expired());
        app.await("expired in the table", () -> io.meshcontrol.gui.machines.MachinesViewModel.status(row("old"))
                .contains("key expired"));
        app.screenshot("desktop-machine-expired");

        app.click("#deleteMachine");
        app.answerDialog("OK");
        app.await("gone from the server", () -> server.adminClient().nodes().isEmpty());
        app.await("gone from the table", () -> rows().isEmpty());
    }

    @Test
    void suspendKeyExpiryAndTheGlobalExitNodeMarkApply() {
        SettingsView settings = server.adminClient().settings();
        server.adminClient().updateSettings(new SettingsView(settings.devicesApprovalOn(), settings.usersApprovalOn(),
                30));
        Node exit = join("exit", "0.0.0.0/0", "::/0");
        select("exit");
        String id = Long.toString(exit.id());

        app.click("#suspendMachine");
        app.answerDialog("OK");
        app.await("suspended on the server", () -> server.adminClient().node(id).suspended());
        app.await("resumable", () -> app.text("#suspendMachine").equals("Resume"));
        app.click("#suspendMachine");
        app.await("resumed on the server", () -> !server.adminClient().node(id).suspended());

        // Its key expires in 30 days; "Key never expires" turns that off.
        assertNotNull(server.adminClient().node(id).keyExpiry());
        app.await("the key expiry box drawn", () -> app.robot.lookup("#keyNeverExpires").tryQuery().isPresent());
        app.click("#keyNeverExpires");
        app.await("key expiry turned off", () -> server.adminClient().node(id).keyExpiry() == null);
        app.await("the box ticked", () -> app.robot.lookup("#keyNeverExpires")
                .queryAs(javafx.scene.control.CheckBox.class).isSelected());

        app.click("#globalExitNode");
        app.type("#exitNodePriority", "7");
        app.click("#saveExitNode");
        app.await("marked on the server", () -> server.adminClient().nodeRoutes(id).globalExitNode()
                && server.adminClient().nodeRoutes(id).exitNodePriority() == 7);
        app.screenshot("desktop-machine-exit-node");
    }

    @Test
    void aMachinesPeersAndPacketFilterAreShown() {
        join("alpha");
        join("beta");
        select("alpha");
        app.await("beta among alpha's peers", () -> app.robot.from(app.robot.lookup("#machinePeers").queryAll())
                .lookup(".table-cell").lookup((javafx.scene.Node cell) ->
                        "beta".equals(((javafx.scene.control.TableCell<?, ?>) cell).getText())).tryQuery().isPresent());
        app.await("a filter rule", () -> !app.robot.lookup("#machinePacketFilter")
                .queryAs(javafx.scene.control.ListView.class).getItems().isEmpty());
        app.screenshot("desktop-machine-peers");
    }

    @Test
    void aMachineThatOffersNoExitRouteCannotBeMarked() {
        join("plain");
        select("plain");
        app.await("said", () -> app.robot.lookup("This machine offers no exit route.").tryQuery().isPresent());
        assertFalse(app.robot.lookup("#saveExitNode").tryQuery().isPresent());
    }

    private Node joinReporting(String name, String os, String version) {
        return Machine.named(name).hostinfo("{\"Hostname\":\"" + name + "\",\"OS\":\"" + os
                + "\",\"OSVersion\":\"12\",\"IPNVersion\":\"" + version + "-tdeadbeef\"}")
                .join(server.network, AuthKey.forUser("odin").create(server.network));
    }

    private void selectSeveral(String... names) {
        app.selectRows("#machines", names);
        app.await(names.length + " selected", () -> app.text("#bulkCount").equals(names.length + " selected:"));
    }

    @Test
    void theClientsFactsAreColumnsAndTheServerFiltersByThem() {
        server.network.mapContext().latestClientVersion("1.102.5");
        joinReporting("old-linux", "linux", "1.80.3");
        joinReporting("new-windows", "windows", "1.102.5");
        app.await("both listed", () -> rows().size() == 2);
        app.await("the update mark", () -> app.robot.lookup(".table-cell").lookup((javafx.scene.Node cell) ->
                ("1.80.3  " + io.meshcontrol.gui.machines.MachineFacts.UPDATE_MARK + " (1.102.5)")
                        .equals(((javafx.scene.control.TableCell<?, ?>) cell).getText())).tryQuery().isPresent());
        app.awaitShown("linux 12");
        app.screenshot("desktop-machine-facts");

        app.click("#filterUpdateAvailable");
        app.await("only the out-of-date one", () -> rows().stream().map(NodeView::name).toList()
                .equals(List.of("old-linux")));
        app.click("#filterUpdateAvailable");
        app.await("both again", () -> rows().size() == 2);
        app.onFx(() -> {
            app.robot.lookup("#filterOs").queryAs(javafx.scene.control.ComboBox.class).setValue("windows");
            return null;
        });
        app.await("only windows", () -> rows().stream().map(NodeView::name).toList().equals(List.of("new-windows")));
    }

    @Test
    void severalMachinesAreApprovedWithOneRequest() {
        server.adminClient().updateSettings(new SettingsView(true, null, null));
        Node a = join("alpha");
        Node b = join("bravo");
        Node c = join("charlie");
        app.await("all listed", () -> rows().size() == 3);
        app.click("#filterNeedsApproval");
        selectSeveral("alpha", "charlie");
        app.click("#bulk-approve");
        app.await("approved on the server", () -> server.adminClient().node(Long.toString(a.id())).authorized()
                && server.adminClient().node(Long.toString(c.id())).authorized());
        assertFalse(server.adminClient().node(Long.toString(b.id())).authorized(), "bravo was not selected");
        app.await("the filter keeps only bravo", () -> rows().stream().map(NodeView::name).toList()
                .equals(List.of("bravo")));
    }

    @Test
    void severalSelectedMachinesStaySelectedWhenOneOfThemChanges() {
        Node a = join("alpha");
        join("bravo");
        join("charlie");
        app.await("all listed", () -> rows().size() == 3);
        selectSeveral("alpha", "bravo");
        server.adminClient().renameNode(Long.toString(a.id()), "alpha-renamed");
        app.await("the new name in the table", () -> rows().stream().anyMatch(node -> node.name().equals("alpha-renamed")));
        app.await("still 2 selected", () -> app.text("#bulkCount").equals("2 selected:"));
        app.click("#bulk-expire");
        app.answerDialog("OK");
        app.await("both expired on the server", () -> server.adminClient().nodes().stream()
                .filter(NodeView::expired).map(NodeView::name).sorted().toList()
                .equals(List.of("alpha-renamed", "bravo")));
    }

    @Test
    void deletingSeveralMachinesAsksFirstAndSaysWhatHappens() {
        join("alpha");
        join("bravo");
        Node kept = join("charlie");
        app.await("all listed", () -> rows().size() == 3);
        selectSeveral("alpha", "bravo");
        app.click("#bulk-delete");
        app.await("the question", () -> app.robot.lookup(".dialog-pane .content").tryQuery().isPresent());
        assertEquals("Delete 2 machines (alpha, bravo)? They are removed from the network and must join again to come"
                + " back.", app.text(".dialog-pane .content"));
        app.screenshot("desktop-machines-bulk-delete");
        app.answerDialog("Cancel");
        assertEquals(3, server.adminClient().nodes().size(), "cancelled: nothing deleted");
        app.click("#bulk-delete");
        app.answerDialog("OK");
        app.await("deleted on the server", () -> server.adminClient().nodes().stream().map(NodeView::id).toList()
                .equals(List.of(Long.toString(kept.id()))));
        app.await("gone from the table", () -> rows().size() == 1);
    }

    @Test
    void tagsAreAddedToSeveralMachines() {
        server.adminClient().setPolicy("""
                {"tagOwners": {"tag:web": ["odin@"]}, "acls": [{"action": "accept", "src": ["*"], "dst": ["*:*"]}]}
                """);
        Node a = join("alpha");
        Node b = join("bravo");
        app.await("all listed", () -> rows().size() == 2);
        selectSeveral("alpha", "bravo");
        app.type("#bulkTags", "tag:web");
        app.click("#bulk-add-tags");
        app.await("tagged on the server", () -> server.adminClient().node(Long.toString(a.id())).tags()
                .contains("tag:web") && server.adminClient().node(Long.toString(b.id())).tags().contains("tag:web"));
    }
}
