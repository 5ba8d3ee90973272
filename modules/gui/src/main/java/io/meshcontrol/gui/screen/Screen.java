package io.meshcontrol.gui.screen;

import java.util.Map;
import javafx.scene.Parent;
import javafx.scene.input.KeyCombination;

/** One tab of the main window: a view over its own view model. */
public interface Screen {

    String title();

    Parent root();

    /** Reads the screen's data again (F5); also called when the tab is shown. */
    void refresh();

    /** The screen's own keyboard shortcuts, active while it is the tab shown. */
    default Map<KeyCombination, Runnable> shortcuts() {
        return Map.of();
    }

    /** Something changed on the server (its event stream); called for every screen, shown or not. */
    default void changed(Change change) {
    }

    /** Shows the item {@code id} (a notification's): selects it once listed. */
    default void show(String id) {
    }

    /** Stops what the screen runs by itself (a poll) when the window leaves the server. */
    default void close() {
    }
}
