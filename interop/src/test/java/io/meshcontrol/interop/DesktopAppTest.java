package io.meshcontrol.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.api.MeshClient;
import io.meshcontrol.api.NodeView;
import io.meshcontrol.api.PreAuthKeyRequest;
import io.meshcontrol.api.SettingsView;
import io.meshcontrol.api.UserRequest;
import io.meshcontrol.gui.RunningApp;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javafx.scene.Node;
import javafx.scene.control.ComboBox;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableView;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The desktop app against a real {@code tailscaled}: the machine appears waiting for approval with its route
 * waiting, is approved and its route approved from the window, shows online, and goes offline when it stops; and a
 * {@code tailscale up} without a key is registered from the window with the link it printed.
 */
class DesktopAppTest {

    private static final Duration SOON = Duration.ofSeconds(30);

    @RegisterExtension
    final TailscaleNodes nodes = new TailscaleNodes();

    @TempDir
    Path folder;

    private TestNetwork network;
    private RunningApp app;

    @AfterEach
    void stop() throws Exception {
        if (app != null) {
            app.close();
        }
        if (network != null) {
            network.close();
        }
    }

    @SuppressWarnings("unchecked")
    private Optional<NodeView> row(String name) {
        List<NodeView> rows = app.onFx(() -> List.copyOf(app.robot.lookup("#machines").queryAs(TableView.class)
                .getItems()));
        return rows.stream().filter(node -> node.name().equals(name)).findFirst();
    }

    private Optional<Node> cell(String text) {
        return app.robot.lookup(".table-cell").lookup((Node cell) -> text.equals(((TableCell<?, ?>) cell).getText()))
                .tryQuery();
    }

    @Test
    void aRealMachineIsApprovedWithItsRouteAndGoesOfflineInTheWindow() throws Exception {
        network = TestNetwork.start(folder, nodes, Duration.ofMinutes(30));
        MeshClient admin = network.admin();
        admin.createUser(new UserRequest("alice", null, "alice@example.com", "admin"));
        admin.updateSettings(new SettingsView(true, null, null));
        String key = admin.createPreAuthKey(new PreAuthKeyRequest("alice", null, true, false, false, "", null))
                .secret();
        app = RunningApp.start(folder.resolve("desktop"), network.server().localCredentialPath()).connectLocally();

        TailscaleNode router = network.node(ClientVersions.newest(), "router");
        try (InteractiveLogin up = router.upAsync(network.loginServer(), "router", "--auth-key=" + key,
                "--advertise-routes=10.77.0.0/16")) {
            router.awaitStatus("waiting for approval", status -> status.backendState() == BackendState.NeedsMachineAuth,
                    SOON);
            app.await("router listed, waiting", () -> row("router").filter(node -> !node.authorized()).isPresent());
            app.await("router drawn", () -> cell("router").isPresent());
            app.robot.clickOn(app.onFx(() -> cell("router").orElseThrow()));
            app.screenshot("desktop-real-client-waiting");
            app.click("#approveMachine");
            router.awaitStatus("running after approval", NodeStatus::isRunning, SOON);
            up.await(SOON).requireOk();
        }
        app.await("router online", () -> row("router").filter(NodeView::online).isPresent());
        app.await("its route waiting", () -> row("router").map(node -> node.routes().available())
                .filter(routes -> routes.contains("10.77.0.0/16")).isPresent());
        app.await("the route offered for approval", () -> app.robot.lookup("#approveRoutes").tryQuery()
                .filter(button -> !button.isDisabled()).isPresent());
        app.click("#approveRoutes");
        app.await("route approved", () -> network.view("router").routes().approved().contains("10.77.0.0/16"));
        app.await("nothing waiting in the window", () -> row("router")
                .map(io.meshcontrol.gui.machines.MachinesViewModel::status).filter("ok"::equals).isPresent());
        app.screenshot("desktop-real-client-approved");

        router.stop();
        app.await("router offline", () -> row("router").filter(node -> !node.online()).isPresent());
        assertTrue(row("router").orElseThrow().lastSeen() != null, "last seen is when its stream ended");
        assertEquals(List.of("10.77.0.0/16"), network.view("router").routes().approved());
    }

    @Test
    void anInteractiveLoginIsRegisteredFromTheWindowWithTheLinkTheClientPrinted() throws Exception {
        network = TestNetwork.start(folder, nodes, Duration.ofMinutes(30));
        MeshClient admin = network.admin();
        admin.createUser(new UserRequest("bob", null, "bob@example.com", "member"));
        admin.updateSettings(new SettingsView(true, null, null));
        app = RunningApp.start(folder.resolve("desktop"), network.server().localCredentialPath()).connectLocally();

        TailscaleNode laptop = network.node(ClientVersions.newest(), "laptop");
        try (InteractiveLogin up = laptop.upAsync(network.loginServer(), "laptop")) {
            URI link = up.awaitAuthUrl(SOON);
            app.click("#registerMachine");
            app.type("#registerLink", link.toString());
            app.click("#registerLookUp");
            app.await("the machine's details", () -> app.text("#registerDetails").startsWith("Machine laptop"));
            assertTrue(app.text("#registerDetails").contains("linux"), app.text("#registerDetails"));
            app.await("the users offered", () -> app.onFx(() -> app.robot.lookup("#registerUser")
                    .queryAs(ComboBox.class).getItems().contains("bob")));
            app.onFx(() -> {
                app.robot.lookup("#registerUser").queryAs(ComboBox.class).getSelectionModel().select("bob");
                return null;
            });
            app.click("#registerConfirm");
            app.await("registered", () -> app.text("#registerOutcome").startsWith("Registered laptop"));
            up.await(SOON).requireOk();
        }
        assertTrue(laptop.awaitStatus("running", NodeStatus::isRunning, SOON).isRunning());
        NodeView view = network.view("laptop");
        assertEquals("bob", view.user());
        assertTrue(view.authorized(), "approved in the same step");
        assertEquals("interactive", view.registerMethod());
    }
}
