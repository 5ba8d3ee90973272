package io.meshcontrol.gui.screen;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Function;
import javafx.animation.PauseTransition;
import javafx.scene.Node;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;

/**
 * Remembers the widths a user drags table columns to, per table (its id) and column (its title), and gives them back
 * the next time. A column a user sized is left alone by {@link Controls#fitToContent}. Sized widths are kept for
 * the table, not per server.
 */
public final class ColumnWidths {

    /** Set on a column while {@link Controls#fitToContent} sizes it: that width is not the user's. */
    static final String FITTING = "svc.fitting";
    /** Set on a column the user sized: fitting leaves it alone. */
    static final String USER_SIZED = "svc.userSized";

    private ColumnWidths() {
    }

    /**
     * Restores and follows every table with an id under {@code root}.
     *
     * @param saved the widths saved for a table id
     * @param save called (at most every half second per table) with a table id and its user-set widths
     */
    public static void follow(Node root, Function<String, Map<String, Double>> saved,
            BiConsumer<String, Map<String, Double>> save) {
        for (Node node : root.lookupAll(".table-view")) {
            if (node instanceof TableView<?> table && table.getId() != null) {
                follow(table, saved.apply(table.getId()), widths -> save.accept(table.getId(), widths));
            }
        }
    }

    private static void follow(TableView<?> table, Map<String, Double> saved,
            java.util.function.Consumer<Map<String, Double>> save) {
        Map<String, Double> widths = new LinkedHashMap<>(saved);
        PauseTransition later = new PauseTransition(javafx.util.Duration.millis(500));
        later.setOnFinished(event -> save.accept(Map.copyOf(widths)));
        for (TableColumn<?, ?> column : table.getColumns()) {
            Double width = saved.get(column.getText());
            if (width != null) {
                column.getProperties().put(USER_SIZED, true);
                column.setPrefWidth(width);
            }
            // The resize policy (a drag of the header's edge; TableView.resizeColumn) sets the column's width, while
            // fitting sets its preferred width, which the width then follows: a width apart from the preferred one
            // is the user's.
            column.widthProperty().addListener((observable, was, now) -> {
                if (column.getProperties().containsKey(FITTING) || Math.abs(now.doubleValue()
                        - column.getPrefWidth()) < 0.5) {
                    return;
                }
                column.getProperties().put(USER_SIZED, true);
                column.setPrefWidth(now.doubleValue()); // kept when the table lays out again
                widths.put(column.getText(), Math.rint(now.doubleValue()));
                later.playFromStart();
            });
        }
    }
}
