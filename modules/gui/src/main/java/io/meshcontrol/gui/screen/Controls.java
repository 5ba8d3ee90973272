package io.meshcontrol.gui.screen;

import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import javafx.application.Platform;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.ListChangeListener;
import javafx.collections.ObservableList;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.control.Alert;
import javafx.scene.control.ButtonType;
import javafx.scene.control.Label;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.input.Clipboard;
import javafx.scene.input.ClipboardContent;
import javafx.scene.layout.HBox;
import javafx.scene.text.Font;
import javafx.scene.text.Text;

/** The small building blocks the screens lay themselves out with, so every screen looks the same. */
public final class Controls {

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm")
            .withZone(ZoneId.systemDefault());
    /** Room for a cell's padding and the sort arrow of a header. */
    private static final double CELL_PADDING = 24;

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

    /** A table over {@code items} whose columns are as wide as their widest text ({@link #fitToContent}). */
    @SafeVarargs
    public static <T> TableView<T> table(String id, ObservableList<T> items, TableColumn<T, ?>... columns) {
        TableView<T> table = new TableView<>(items);
        table.setId(id);
        table.getColumns().addAll(Arrays.asList(columns));
        fitToContent(table);
        return table;
    }

    /**
     * Sizes each text column to its header and its widest cell whenever the rows change, so that nothing is cut
     * ("onl..."): a table wider than its place scrolls sideways instead.
     */
    public static <T> void fitToContent(TableView<T> table) {
        table.setColumnResizePolicy(TableView.UNCONSTRAINED_RESIZE_POLICY);
        Runnable fit = () -> table.getColumns().forEach(column -> fit(table, column));
        table.itemsProperty().addListener((observable, was, items) -> Platform.runLater(fit));
        table.getItems().addListener((ListChangeListener<T>) change -> Platform.runLater(fit));
        fit.run();
    }

    private static <T> void fit(TableView<T> table, TableColumn<T, ?> column) {
        if (column.getProperties().containsKey(ColumnWidths.USER_SIZED)) {
            return; // the user's width (ColumnWidths)
        }
        double widest = width(column.getText()) + CELL_PADDING;
        for (T item : List.copyOf(table.getItems())) {
            Object value = column.getCellObservableValue(item) == null ? null
                    : column.getCellObservableValue(item).getValue();
            if (value instanceof String text) {
                widest = Math.max(widest, width(text) + CELL_PADDING);
            } else if (value != null) {
                return; // drawn by a cell factory of its own, which sets its width
            }
        }
        column.getProperties().put(ColumnWidths.FITTING, true);
        try {
            column.setPrefWidth(Math.ceil(widest));
        } finally {
            column.getProperties().remove(ColumnWidths.FITTING);
        }
    }

    private static double width(String text) {
        // The app's font (app.css: 13px); measured off the scene, where no style sheet applies.
        Text measured = new Text(text == null ? "" : text);
        measured.setFont(Font.font(Font.getDefault().getFamily(), 13));
        return measured.getLayoutBounds().getWidth();
    }

    /**
     * Selects the first row {@code match} picks, now if the table lists it, else as soon as it does (a screen just
     * shown reads its rows in the background): a notification opens its item so.
     */
    public static <T> void selectWhenListed(TableView<T> table, java.util.function.Predicate<T> match) {
        Runnable select = () -> table.getItems().stream().filter(match).findFirst().ifPresent(row -> {
            table.getSelectionModel().clearSelection();
            table.getSelectionModel().select(row);
            table.scrollTo(row);
            table.requestFocus();
        });
        if (table.getItems().stream().anyMatch(match)) {
            select.run();
        }
        ListChangeListener<T> once = new ListChangeListener<>() {
            @Override
            public void onChanged(Change<? extends T> change) {
                if (table.getItems().stream().anyMatch(match)) {
                    table.getItems().removeListener(this);
                    Platform.runLater(select); // after the table's own reaction to the change, which may clear it
                }
            }
        };
        table.getItems().addListener(once);
    }

    /** A text field with an id and a hint. */
    public static TextField field(String id, String prompt) {
        TextField field = new TextField();
        field.setId(id);
        field.setPromptText(prompt);
        return field;
    }

    /** A read-only field for a value to copy (a secret shown once). */
    public static TextField readOnly(String id) {
        TextField field = new TextField();
        field.setId(id);
        field.setEditable(false);
        field.getStyleClass().add("code");
        return field;
    }

    public static void copy(String text) {
        ClipboardContent content = new ClipboardContent();
        content.putString(text);
        Clipboard.getSystemClipboard().setContent(content);
    }

    /** Asks before something that cannot be undone; runs {@code action} on OK. */
    public static void confirm(Node owner, String question, Runnable action) {
        Alert alert = new Alert(Alert.AlertType.CONFIRMATION, question, ButtonType.OK, ButtonType.CANCEL);
        alert.initOwner(owner.getScene().getWindow());
        alert.showAndWait().filter(ButtonType.OK::equals).ifPresent(ok -> action.run());
    }

    /** A time as the tables show it, local; empty for none. */
    public static String time(Instant instant) {
        return instant == null ? "" : TIME.format(instant);
    }

    /** Words separated by commas or white space ("tag:a, tag:b"), empty ones dropped. */
    public static List<String> words(String text) {
        return text == null ? List.of() : Arrays.stream(text.split("[,\\s]+")).filter(word -> !word.isEmpty()).toList();
    }

    /** Null for blank input: the server's default applies. */
    public static String blankToNull(String text) {
        return text == null || text.isBlank() ? null : text.strip();
    }

    public static String orEmpty(String text) {
        return text == null ? "" : text;
    }
}
