package io.meshcontrol.gui;

import javafx.scene.Scene;

/** Light or dark: a style sheet each, laid over the common one. */
public enum Theme {
    LIGHT("light.css"),
    DARK("dark.css");

    private final String sheet;

    Theme(String sheet) {
        this.sheet = sheet;
    }

    public Theme other() {
        return this == LIGHT ? DARK : LIGHT;
    }

    public void applyTo(Scene scene) {
        scene.getStylesheets().setAll(url("app.css"), url(sheet));
    }

    private static String url(String name) {
        return Theme.class.getResource(name).toExternalForm();
    }
}
