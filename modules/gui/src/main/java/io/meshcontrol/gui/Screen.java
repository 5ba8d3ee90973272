package io.meshcontrol.gui;

import javafx.scene.Parent;

/** One tab of the main window: a view over its own view model. */
public interface Screen {

    String title();

    Parent root();

    /** Reads the screen's data again (F5); also called when the tab is shown. */
    void refresh();

    /** Stops what the screen runs by itself (a poll) when the window leaves the server. */
    default void close() {
    }
}
