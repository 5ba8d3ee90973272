package io.meshcontrol.gui;

import io.meshcontrol.gui.access.AccessRequestsScreen;
import io.meshcontrol.gui.apps.AppsScreen;
import io.meshcontrol.gui.audit.AuditScreen;
import io.meshcontrol.gui.connect.Connection;
import io.meshcontrol.gui.connect.Profile;
import io.meshcontrol.gui.dns.DnsScreen;
import io.meshcontrol.gui.keys.KeysScreen;
import io.meshcontrol.gui.machines.MachinesScreen;
import io.meshcontrol.gui.network.NetworkScreen;
import io.meshcontrol.gui.notify.Notice;
import io.meshcontrol.gui.notify.Notifications;
import io.meshcontrol.gui.oauth.OAuthClientsScreen;
import io.meshcontrol.gui.policy.PolicyScreen;
import io.meshcontrol.gui.relays.RelaysScreen;
import io.meshcontrol.gui.screen.Background;
import io.meshcontrol.gui.screen.Controls;
import io.meshcontrol.gui.screen.LiveUpdates;
import io.meshcontrol.gui.screen.Screen;
import io.meshcontrol.gui.webhooks.WebhooksScreen;
import java.util.LinkedHashMap;
import java.util.Map;
import javafx.scene.control.ComboBox;
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
 * A connected server: the screens as tabs (Ctrl+1 ... Ctrl+9, Ctrl+0 for the tenth, Ctrl+Tab), the server (a
 * chooser of the saved ones) and any warning above them, and a status bar with the progress of background calls,
 * their Cancel (Escape), the last outcome, and whether live updates flow. The screens learn of changes from the
 * server's event stream ({@link LiveUpdates}), not by polling.
 */
final class MainView {

    private final BorderPane root = new BorderPane();
    private final List<Screen> screens;
    private final TabPane tabs = new TabPane();
    private final List<KeyCombination> shortcuts = new java.util.ArrayList<>();
    private final LiveUpdates live;
    private final Notifications notifications;
    private boolean widthsFollowed;

    MainView(Connection connection, AdminWindow window) {
        Background background = window.background();
        screens = List.of(new MachinesScreen(connection, background), new PolicyScreen(connection, background),
                new KeysScreen(connection, background), new NetworkScreen(connection, background),
                new AccessRequestsScreen(connection, background), new WebhooksScreen(connection, background),
                new AppsScreen(connection, background), new DnsScreen(connection, background),
                new RelaysScreen(connection, background), new OAuthClientsScreen(connection, background),
                new AuditScreen(connection, background));
        live = new LiveUpdates(connection.client());
        live.listen(change -> screens.forEach(screen -> screen.changed(change)));
        notifications = new Notifications(connection.client(), background);
        live.listen(notifications::changed);
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
        live.start();

        ComboBox<Profile> servers = new ComboBox<>(javafx.collections.FXCollections.observableArrayList(
                window.settings().profiles()));
        servers.setId("serverChooser");
        servers.setValue(servers.getItems().stream().filter(profile -> profile.name().equals(connection.profile().name()))
                .findFirst().orElse(connection.profile()));
        servers.setOnAction(event -> {
            Profile chosen = servers.getValue();
            if (chosen != null && !chosen.name().equals(connection.profile().name())) {
                window.switchTo(chosen);
            }
        });
        Label server = new Label(connection.client().baseUrl() + " · server " + connection.server().version());
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
        HBox bar = new HBox(8, servers, server, gap, theme, disconnect);
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
        Label liveState = new Label();
        liveState.setId("liveState");
        liveState.textProperty().bind(javafx.beans.binding.Bindings.when(live.connected())
                .then("● live").otherwise("○ not live: reconnecting…"));
        Region statusGap = new Region();
        HBox.setHgrow(statusGap, Priority.ALWAYS);
        javafx.scene.control.ListView<Notice> noticeList = new javafx.scene.control.ListView<>(notifications.notices());
        noticeList.setId("notificationList");
        noticeList.setPrefHeight(140);
        noticeList.setPlaceholder(new Label("Nothing waits for you"));
        VBox noticePanel = new VBox(4, Controls.heading("Notifications (click one to open it)"), noticeList);
        noticePanel.setId("notificationPanel");
        noticePanel.setPadding(new Insets(6, 12, 6, 12));
        noticePanel.getStyleClass().add("top-bar");
        noticePanel.setVisible(false);
        noticePanel.managedProperty().bind(noticePanel.visibleProperty());
        noticeList.setOnMouseClicked(event -> open(noticeList.getSelectionModel().getSelectedItem(), noticePanel));
        noticeList.setOnKeyPressed(event -> {
            if (event.getCode() == KeyCode.ENTER) {
                open(noticeList.getSelectionModel().getSelectedItem(), noticePanel);
            }
        });
        Button bell = new Button();
        bell.setId("notifications");
        bell.textProperty().bind(javafx.beans.binding.Bindings.createStringBinding(() -> notifications.notices()
                .isEmpty() ? "No notifications" : notifications.notices().size() == 1 ? "1 notification"
                : notifications.notices().size() + " notifications",
                notifications.notices()));
        bell.setOnAction(event -> noticePanel.setVisible(!noticePanel.isVisible()));
        // A new notice shows the badge in the warning colour until the list is opened.
        notifications.notices().addListener((javafx.collections.ListChangeListener<Notice>) change ->
                bell.pseudoClassStateChanged(javafx.css.PseudoClass.getPseudoClass("waiting"),
                        !notifications.notices().isEmpty()));
        HBox status = new HBox(8, progress, activity, cancel, message, statusGap, bell, liveState);
        status.setAlignment(Pos.CENTER_LEFT);
        status.setPadding(new Insets(4, 12, 4, 12));
        status.getStyleClass().add("status-bar");

        root.setTop(top);
        root.setCenter(tabs);
        root.setBottom(new VBox(noticePanel, status));
        root.sceneProperty().addListener((observable, was, scene) -> {
            if (scene != null) {
                addShortcuts(scene);
                if (!widthsFollowed) {
                    widthsFollowed = true;
                    // The tables are in the scene graph once the skins are made (a split pane's items, a tab's
                    // content): CSS makes them.
                    root.applyCss();
                    for (Screen screen : screens) {
                        screen.root().applyCss();
                        io.meshcontrol.gui.screen.ColumnWidths.follow(screen.root(), window.settings()::columnWidths,
                                window.settings()::columnWidths);
                    }
                }
            }
        });
    }

    /** Opens the notice's item: its screen's tab, the item selected. */
    private void open(Notice notice, javafx.scene.Node panel) {
        if (notice == null) {
            return;
        }
        for (int i = 0; i < screens.size(); i++) {
            if (screens.get(i).title().equals(notice.kind().screen())) {
                tabs.getSelectionModel().select(i);
                screens.get(i).show(notice.id());
                panel.setVisible(false);
                return;
            }
        }
    }

    private void addShortcuts(javafx.scene.Scene scene) {
        for (int i = 0; i < Math.min(screens.size(), 10); i++) {
            int index = i;
            shortcut(scene, new KeyCodeCombination(KeyCode.getKeyCode(Integer.toString((i + 1) % 10)),
                    KeyCombination.SHORTCUT_DOWN), () -> tabs.getSelectionModel().select(index));
        }
        // Screens share some keys (Ctrl+F, Ctrl+S): one accelerator per key, for the screen shown.
        Map<KeyCombination, Map<Screen, Runnable>> byKey = new LinkedHashMap<>();
        for (Screen screen : screens) {
            screen.shortcuts().forEach((keys, action) -> byKey.computeIfAbsent(keys, ignored -> new LinkedHashMap<>())
                    .put(screen, action));
        }
        byKey.forEach((keys, actions) -> shortcut(scene, keys, () -> {
            Runnable action = actions.get(shown());
            if (action != null) {
                action.run();
            }
        }));
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
        live.close();
        screens.forEach(Screen::close);
        if (root.getScene() != null) {
            shortcuts.forEach(root.getScene().getAccelerators()::remove);
        }
    }
}
