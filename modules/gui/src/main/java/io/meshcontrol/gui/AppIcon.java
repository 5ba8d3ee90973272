package io.meshcontrol.gui;

import javafx.scene.SnapshotParameters;
import javafx.scene.canvas.Canvas;
import javafx.scene.canvas.GraphicsContext;
import javafx.scene.image.Image;
import javafx.scene.paint.Color;

/**
 * The window's icon, drawn as installers/desktop/svc-admin.svg draws the menu's (JavaFX reads no SVG): a three by
 * three mesh of nodes on a blue tile. Drawn on the JavaFX thread.
 */
final class AppIcon {

    private AppIcon() {
    }

    static Image image(int size) {
        Canvas canvas = new Canvas(size, size);
        GraphicsContext g = canvas.getGraphicsContext2D();
        double unit = size / 64.0;
        g.setFill(Color.web("#1e3a8a"));
        g.fillRoundRect(0, 0, size, size, 24 * unit, 24 * unit);
        g.setStroke(Color.web("#93c5fd"));
        g.setLineWidth(2.5 * unit);
        g.strokeLine(16 * unit, 16 * unit, 48 * unit, 48 * unit);
        g.strokeLine(48 * unit, 16 * unit, 16 * unit, 48 * unit);
        g.strokeLine(16 * unit, 32 * unit, 48 * unit, 32 * unit);
        g.strokeLine(32 * unit, 16 * unit, 32 * unit, 48 * unit);
        g.setFill(Color.WHITE);
        for (int x = 16; x <= 48; x += 16) {
            for (int y = 16; y <= 48; y += 16) {
                double radius = (x == 32 && y == 32 ? 6 : 5) * unit;
                g.fillOval(x * unit - radius, y * unit - radius, 2 * radius, 2 * radius);
            }
        }
        SnapshotParameters transparent = new SnapshotParameters();
        transparent.setFill(Color.TRANSPARENT);
        return canvas.snapshot(transparent, null);
    }
}
