package io.meshcontrol.gui;

import javafx.application.Application;
import javafx.stage.Stage;

/** The JavaFX application: {@link #open} shows the window and returns when it is closed. */
public final class AdminApp extends Application {

    // JavaFX instantiates the application itself, so what it needs is handed over here.
    private static volatile Launch launch;

    /** Shows the admin window; blocks until the user closes it. */
    public static void open(Launch value) {
        launch = value;
        Application.launch(AdminApp.class);
    }

    @Override
    public void start(Stage stage) {
        new AdminWindow(launch).show(stage);
    }
}
