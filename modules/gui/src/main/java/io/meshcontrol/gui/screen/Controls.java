package io.meshcontrol.gui.screen;

import java.util.function.Function;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.control.TableColumn;
import javafx.scene.layout.HBox;

/** The small building blocks the screens lay themselves out with, so every screen looks the same. */
public final class Controls {

    private Controls() {
    }

    /** Controls side by side, centred on their line. */
    public static HBox row(Node... nodes) {
        HBox row = new HBox(8, nodes);
        row.setAlignment(Pos.CENTER_LEFT);
        return row;
    }

    /** A section's heading. */
    public static Label heading(String text) {
        Label label = new Label(text);
        label.getStyleClass().add("section");
        return label;
    }

    /** A read-only text column showing {@code value} of each row. */
    public static <T> TableColumn<T, String> column(String title, Function<T, String> value) {
        TableColumn<T, String> column = new TableColumn<>(title);
        column.setCellValueFactory(cell -> new ReadOnlyStringWrapper(value.apply(cell.getValue())));
        return column;
    }
}
