package io.meshcontrol.gui.screen;

import java.util.Objects;
import java.util.function.Function;
import javafx.application.Platform;
import javafx.beans.binding.BooleanBinding;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.collections.ListChangeListener;
import javafx.scene.control.TableView;

/**
 * The row a table's actions apply to. A table loses its selection when its rows are read again (a refresh after an
 * action, a live update); this keeps the chosen row, by its key, for as long as the rows still hold it, in its newest
 * state, and selects it again in the table.
 */
public final class Selection<T> {

    private final ReadOnlyObjectWrapper<T> item = new ReadOnlyObjectWrapper<>();

    private Selection(TableView<T> table, Function<T, String> key) {
        table.getSelectionModel().selectedItemProperty().addListener((observable, was, chosen) -> {
            if (chosen != null) {
                item.set(chosen);
            }
        });
        table.getItems().addListener((ListChangeListener<T>) change -> {
            T chosen = item.get();
            if (chosen == null) {
                return;
            }
            String id = key.apply(chosen);
            T now = table.getItems().stream().filter(row -> Objects.equals(id, key.apply(row))).findFirst()
                    .orElse(null);
            item.set(now);
            // Later: the table's own selection model reacts to the same change and may clear its selection after us.
            Platform.runLater(() -> {
                if (now != null && item.get() == now && table.getSelectionModel().getSelectedItem() != now) {
                    table.getSelectionModel().select(now);
                }
            });
        });
    }

    public static <T> Selection<T> of(TableView<T> table, Function<T, String> key) {
        return new Selection<>(table, key);
    }

    public ReadOnlyObjectProperty<T> item() {
        return item.getReadOnlyProperty();
    }

    public T get() {
        return item.get();
    }

    /** For the buttons that act on the row: disabled while this is true. */
    public BooleanBinding none() {
        return item.isNull();
    }
}
