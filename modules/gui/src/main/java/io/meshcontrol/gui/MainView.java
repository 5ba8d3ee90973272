package io.meshcontrol.gui;

import io.meshcontrol.gui.connect.Connection;
import io.meshcontrol.gui.keys.KeysScreen;
import io.meshcontrol.gui.machines.MachinesScreen;
import io.meshcontrol.gui.network.NetworkScreen;
import io.meshcontrol.gui.policy.PolicyScreen;
import io.meshcontrol.gui.screen.Background;
import io.meshcontrol.gui.screen.Screen;
import java.util.List;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.Parent;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressIndicator;
import javafx.scene.control.Tab;
import javafx.scene.control.TabPane;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyCodeCombination;
import javafx.scene.input.KeyCombination;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;

/**
 * A connected server: the screens as tabs (Ctrl+1 ... Ctrl+4), the server and any warning above them, and a status
 * bar with the progress of background calls, their Cancel (Escape), and the last outcome.
 */
final class MainView {

    private final BorderPane root = new BorderPane();
    private final List<Screen> screens;
    private final TabPane tabs = new TabPane();
    private final List<KeyCombination> shortcuts = new java.util.ArrayList<>();

    MainView(Connection connection, AdminWindow window) {
        Background background = window.background();
        screens = List.of(new MachinesScreen(connection, background), new PolicyScreen(connection, background),
                new KeysScreen(connection, background), new NetworkScreen(connection, background));
        for (Screen screen : screens) {
            Tab tab = new Tab(screen.title(), screen.root());
            tab.setClosable(false);
            tab.setId("tab-" + screen.getClass().getSimpleName());
            tab.selectedProperty().addListener((observable, was, selected) -> {
                if (selected) {
                    screen.refresh();
                }
            });
            tabs.getTabs().add(tab);
        }
        screens.getFirst().refresh();

        Label server = new Label(connection.profile().name() + " · " + connection.client().baseUrl() + " · server "
                + connection.server().version());
        server.setId("serverLabel");
        server.getStyleClass().add("server-label");
        Label warning = new Label(String.join("; ", connection.warnings()));
        warning.setId("versionWarning");
        warning.getStyleClass().add("warning-text");
        warning.setWrapText(true);
        warning.setVisible(!connection.warnings().isEmpty());
        warning.setManaged(!connection.warnings().isEmpty());
        Button theme = new Button("Light / dark");
        theme.setId("toggleTheme");
        theme.setOnAction(event -> window.toggleTheme());
        Button disconnect = new Button("Disconnect");
        disconnect.setId("disconnect");
        disconnect.setOnAction(event -> window.disconnect());
        Region gap = new Region();
        HBox.setHgrow(gap, Priority.ALWAYS);
        HBox bar = new HBox(8, server, gap, theme, disconnect);
        bar.setAlignment(Pos.CENTER_LEFT);
        VBox top = new VBox(6, bar, warning);
        top.setPadding(new Insets(8, 12, 8, 12));
        top.getStyleClass().add("top-bar");

        ProgressIndicator progress = new ProgressIndicator();
        progress.setId("progress");
        progress.setPrefSize(16, 16);
        progress.visibleProperty().bind(background.busy());
        Label activity = new Label();
        activity.textProperty().bind(background.activity());
        Button cancel = new Button("Cancel");
        cancel.setId("cancelWork");
        cancel.visibleProperty().bind(background.busy());
        cancel.setOnAction(event -> background.cancelAll());
        Label message = new Label();
        message.setId("statusMessage");
        message.textProperty().bind(javafx.beans.binding.Bindings.when(background.failure().isEmpty())
                .then(background.message()).otherwise(background.failure()));
        message.styleProperty().bind(javafx.beans.binding.Bindings.when(background.failure().isEmpty())
                .then("").otherwise("-fx-text-fill: -svc-error;"));
        progress.managedProperty().bind(progress.visibleProperty());
        cancel.managedProperty().bind(cancel.visibleProperty());
        HBox status = new HBox(8, progress, activity, cancel, message);
        status.setAlignment(Pos.CENTER_LEFT);
        status.setPadding(new Insets(4, 12, 4, 12));
        status.getStyleClass().add("status-bar");

        root.setTop(top);
        root.setCenter(tabs);
        root.setBottom(status);
        root.sceneProperty().addListener((observable, was, scene) -> {
            if (scene != null) {
                addShortcuts(scene);
            }
        });
    }

    private void addShortcuts(javafx.scene.Scene scene) {
        for (int i = 0; i < screens.size(); i++) {
            int index = i;
            shortcut(scene, new KeyCodeCombination(KeyCode.getKeyCode(Integer.toString(i + 1)),
                    KeyCombination.SHORTCUT_DOWN), () -> tabs.getSelectionModel().select(index));
        }
        for (Screen screen : screens) {
            screen.shortcuts().forEach((keys, action) -> shortcut(scene, keys, () -> {
                if (shown() == screen) {
                    action.run();
                }
            }));
        }
        shortcut(scene, new KeyCodeCombination(KeyCode.F5), this::refreshShown);
        shortcut(scene, new KeyCodeCombination(KeyCode.R, KeyCombination.SHORTCUT_DOWN), this::refreshShown);
    }

    private void shortcut(javafx.scene.Scene scene, KeyCombination keys, Runnable action) {
        scene.getAccelerators().put(keys, action);
        shortcuts.add(keys);
    }

    private Screen shown() {
        return screens.get(tabs.getSelectionModel().getSelectedIndex());
    }

    private void refreshShown() {
        shown().refresh();
    }

    Parent root() {
        return root;
    }

    void close() {
        screens.forEach(Screen::close);
        if (root.getScene() != null) {
            shortcuts.forEach(root.getScene().getAccelerators()::remove);
        }
    }
}
