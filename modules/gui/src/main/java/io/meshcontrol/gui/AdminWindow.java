package io.meshcontrol.gui;

import io.meshcontrol.gui.connect.Connection;
import io.meshcontrol.gui.connect.ConnectionView;
import io.meshcontrol.gui.connect.ConnectionViewModel;
import io.meshcontrol.gui.connect.Connector;
import io.meshcontrol.gui.connect.DesktopSettings;
import io.meshcontrol.gui.screen.Background;
import javafx.scene.Scene;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyCodeCombination;
import javafx.scene.input.KeyCombination;
import javafx.stage.Stage;

/**
 * The one window: the connection screen until a server is connected, then its {@link MainView}. Remembers its size
 * and theme in the user's configuration folder.
 */
public final class AdminWindow {

    private static final double WIDTH = 1180;
    private static final double HEIGHT = 760;

    private final Launch launch;
    private final DesktopSettings settings;
    private final Background background = new Background();
    private Theme theme;
    private Scene scene;
    private MainView main;

    public AdminWindow(Launch launch) {
        this.launch = launch;
        this.settings = DesktopSettings.in(launch.configFolder());
        String saved = settings.stored().theme();
        this.theme = java.util.Arrays.stream(Theme.values()).filter(value -> value.name().equals(saved)).findFirst()
                .orElse(Theme.LIGHT);
    }

    public void show(Stage stage) {
        DesktopSettings.Stored stored = settings.stored();
        scene = new Scene(connectionScreen(), stored.width() == null ? WIDTH : stored.width(),
                stored.height() == null ? HEIGHT : stored.height());
        theme.applyTo(scene);
        scene.getAccelerators().put(new KeyCodeCombination(KeyCode.T, KeyCombination.SHORTCUT_DOWN, KeyCombination.SHIFT_DOWN),
                this::toggleTheme);
        scene.getAccelerators().put(new KeyCodeCombination(KeyCode.ESCAPE), background::cancelAll);
        stage.setTitle("Mesh Control");
        stage.getIcons().setAll(AppIcon.image(64), AppIcon.image(32));
        stage.setScene(scene);
        stage.setOnHidden(event -> {
            settings.window(scene.getWidth(), scene.getHeight(), theme.name());
            if (main != null) {
                main.close();
            }
            background.close();
        });
        stage.show();
    }

    public Background background() {
        return background;
    }

    public Theme theme() {
        return theme;
    }

    public void toggleTheme() {
        theme = theme.other();
        theme.applyTo(scene);
        settings.window(scene.getWidth(), scene.getHeight(), theme.name());
    }

    private javafx.scene.Parent connectionScreen() {
        return new ConnectionView(connectionModel()).root();
    }

    private ConnectionViewModel connectionModel() {
        return new ConnectionViewModel(new Connector(launch.version(), launch.localCredential()), settings, background,
                this::connected);
    }

    private void connected(Connection connection) {
        // What the status bar said was of the last server.
        background.clear();
        main = new MainView(connection, this);
        scene.setRoot(main.root());
    }

    DesktopSettings settings() {
        return settings;
    }

    /** Back to the connection screen. */
    void disconnect() {
        leave();
        scene.setRoot(connectionScreen());
    }

    /**
     * Another saved server, chosen in the window: connects to it with its saved key; a failure leaves the connection
     * screen open on it, saying why.
     */
    void switchTo(io.meshcontrol.gui.connect.Profile profile) {
        leave();
        ConnectionViewModel model = connectionModel();
        model.selected().set(model.profiles().stream().filter(saved -> saved.name().equals(profile.name()))
                .findFirst().orElse(profile));
        scene.setRoot(new ConnectionView(model).root());
        model.connect();
    }

    private void leave() {
        if (main != null) {
            main.close();
            main = null;
        }
        background.cancelAll();
        background.clear();
    }
}
