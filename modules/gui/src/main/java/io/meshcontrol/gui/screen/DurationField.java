package io.meshcontrol.gui.screen;

import io.meshcontrol.api.HumanDuration;
import javafx.scene.control.MenuButton;
import javafx.scene.control.MenuItem;
import javafx.scene.control.TextField;
import javafx.scene.layout.HBox;

/**
 * A duration input as everywhere in svc ({@link HumanDuration}: {@code 30d}, {@code 2w}, {@code 90 days}, Go's
 * {@code 12h}), with a small menu of presets beside it.
 */
public final class DurationField {

    private final TextField field;
    private final HBox node;

    /**
     * @param id the text field's id
     * @param prompt the hint (say what an empty field means)
     * @param presets what the menu offers ({@code 8h}, {@code 30d})
     */
    public DurationField(String id, String prompt, String... presets) {
        field = Controls.field(id, prompt);
        MenuButton menu = new MenuButton(); // its arrow alone
        menu.setAccessibleText("Presets");
        menu.setId(id + "Presets");
        menu.setTooltip(new javafx.scene.control.Tooltip("Presets; or type 30d, 2w, 90 days, 12h"));
        for (String preset : presets) {
            MenuItem item = new MenuItem(HumanDuration.describe(HumanDuration.parse(preset)));
            item.setOnAction(event -> field.setText(preset));
            menu.getItems().add(item);
        }
        node = new HBox(2, field, menu);
        node.setAlignment(javafx.geometry.Pos.CENTER_LEFT);
    }

    public TextField field() {
        return field;
    }

    /** The field with its menu, to place in a form. */
    public HBox node() {
        return node;
    }

    /**
     * Whole days from what was typed: a bare number is days (as the field always read), else a duration of whole
     * days ({@code 2w}, {@code 30d}); blank is 0.
     *
     * @throws IllegalArgumentException for anything else, with a reason
     */
    public static int days(String text) {
        if (text == null || text.isBlank()) {
            return 0;
        }
        if (text.strip().matches("\\d+")) {
            return Integer.parseInt(text.strip());
        }
        java.time.Duration duration = HumanDuration.parse(text);
        if (duration.toSeconds() % 86_400 != 0 || duration.toNanosPart() != 0) {
            throw new IllegalArgumentException("\"" + text.strip() + "\" is not a whole number of days (30d, 2w)");
        }
        return Math.toIntExact(duration.toDays());
    }
}
