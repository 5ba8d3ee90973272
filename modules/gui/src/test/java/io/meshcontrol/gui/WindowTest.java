package io.meshcontrol.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.server.testing.TestServer;
import java.nio.file.Path;
import javafx.stage.Window;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The window remembers its theme, size and last server; shortcuts reach the screens and cancel calls. */
class WindowTest {

    @TempDir
    Path folder;
    private TestServer server;
    private RunningApp app;

    @AfterEach
    void stop() throws Exception {
        app.close();
        server.close();
    }

    private Window window() {
        return app.robot.listTargetWindows().getFirst();
    }

    private boolean dark() {
        return app.onFx(() -> window().getScene().getStylesheets().stream().anyMatch(sheet -> sheet.endsWith("dark.css")));
    }

    @Test
    void themeAndSizeAreRememberedForTheNextStart() throws Exception {
        server = TestServer.start(folder);
        app = RunningApp.start(folder.resolve("config"), server.localCredentialPath()).connectLocally();
        assertTrue(!dark());
        app.click("#toggleTheme");
        assertTrue(dark());
        app.screenshot("desktop-dark");
        app.robot.interact(() -> {
            window().setWidth(1000);
            window().setHeight(700);
        });
        app.close();

        app = RunningApp.start(folder.resolve("config"), server.localCredentialPath());
        assertTrue(dark(), "dark again");
        double width = app.onFx(() -> window().getScene().getWidth());
        assertEquals(1000, width, 20, "the width comes back (the scene is the window less its decorations)");
    }

    @Test
    void shortcutsSwitchScreens() throws Exception {
        server = TestServer.start(folder);
        app = RunningApp.start(folder.resolve("config"), server.localCredentialPath()).connectLocally();
        app.robot.press(javafx.scene.input.KeyCode.CONTROL, javafx.scene.input.KeyCode.DIGIT2)
                .release(javafx.scene.input.KeyCode.DIGIT2, javafx.scene.input.KeyCode.CONTROL);
        app.awaitShown("#policyEditor");
        app.robot.press(javafx.scene.input.KeyCode.CONTROL, javafx.scene.input.KeyCode.DIGIT3)
                .release(javafx.scene.input.KeyCode.DIGIT3, javafx.scene.input.KeyCode.CONTROL);
        app.awaitShown("#createApiKey");
        // The tenth screen is Ctrl+0; every screen past the first nine is reachable by keyboard.
        app.robot.press(javafx.scene.input.KeyCode.CONTROL, javafx.scene.input.KeyCode.DIGIT0)
                .release(javafx.scene.input.KeyCode.DIGIT0, javafx.scene.input.KeyCode.CONTROL);
        app.awaitShown("#createOAuthClient");
    }

    @Test
    void theWindowHasItsIcon() throws Exception {
        server = TestServer.start(folder);
        app = RunningApp.start(folder.resolve("config"), server.localCredentialPath());
        assertEquals(2, app.onFx(() -> ((javafx.stage.Stage) window()).getIcons().size()));
        assertEquals(64.0, (double) app.onFx(() -> ((javafx.stage.Stage) window()).getIcons().getFirst().getWidth()));
    }
}
