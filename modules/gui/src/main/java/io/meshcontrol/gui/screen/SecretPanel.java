package io.meshcontrol.gui.screen;

import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.geometry.Insets;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.TextField;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;

/**
 * A secret the server shows once (a webhook's signing secret, an OAuth client's): the value with Copy and Done, and
 * what it belongs to. {@link #owner()} names the item, so that the panel closes when that item goes.
 */
public final class SecretPanel {

    private final StringProperty secret = new SimpleStringProperty("");
    private final StringProperty note = new SimpleStringProperty("");
    private String owner = "";
    private final VBox root;

    /** @param id the id of the secret's field ({@code webhookSecret}) */
    public SecretPanel(String id) {
        TextField value = Controls.readOnly(id);
        value.textProperty().bind(secret);
        Button copy = new Button("Copy");
        copy.setId(id + "Copy");
        copy.setOnAction(event -> Controls.copy(secret.get()));
        Button done = new Button("Done");
        done.setId(id + "Done");
        done.setOnAction(event -> dismiss());
        Label text = new Label();
        text.textProperty().bind(note);
        text.getStyleClass().add("warning-text");
        HBox line = new HBox(8, value, copy, done);
        HBox.setHgrow(value, Priority.ALWAYS);
        root = new VBox(6, text, line);
        root.getStyleClass().add("secret-panel");
        root.setPadding(new Insets(8));
        root.visibleProperty().bind(secret.isNotEmpty());
        root.managedProperty().bind(root.visibleProperty());
    }

    public void show(String owner, String value, String text) {
        this.owner = owner;
        secret.set(value);
        note.set(text);
    }

    /** Forgets the secret: it cannot be shown again. */
    public void dismiss() {
        owner = "";
        secret.set("");
        note.set("");
    }

    /** Closes the panel when it shows the secret of {@code gone} (deleted, revoked). */
    public void forget(String gone) {
        if (owner.equals(gone)) {
            dismiss();
        }
    }

    public String owner() {
        return owner;
    }

    public VBox root() {
        return root;
    }
}
